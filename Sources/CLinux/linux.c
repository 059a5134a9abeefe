#include "CLinux.h"

int cdl_timer_cancel_on_set(void) {
#ifdef TFD_TIMER_CANCEL_ON_SET
    return TFD_TIMER_CANCEL_ON_SET;
#else
    return 1 << 1;
#endif
}
