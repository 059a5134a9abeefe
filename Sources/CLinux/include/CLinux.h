#ifndef CLINUX_H
#define CLINUX_H
/* Linux descriptors the run loop waits on, which Swift's Glibc module does not export. */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#include <stdint.h>

/* TFD_TIMER_CANCEL_ON_SET: report wall-clock changes on a CLOCK_REALTIME timerfd. */
int cdl_timer_cancel_on_set(void);
#endif
