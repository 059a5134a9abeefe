#include <hiredis/hiredis.h>
#include <hiredis/async.h>
