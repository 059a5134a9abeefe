#ifndef CLUASHIM_H
#define CLUASHIM_H

/* Everything the Swift host uses of the shim, one header per idea: */
#include "CLuaWrappers.h"     /* macros as functions, host functions, loading, references */
#include "CLuaTraceback.h"    /* protected calls with a traceback */
#include "CLuaSlots.h"        /* hook slots, user values, flags, tick fields: named once */
#include "CLuaTick.h"         /* a hook's `t` */
#include "CLuaHookCaller.h"   /* calling hooks */
#include "CLuaHandles.h"      /* countdown handles and their references */
#include "CLuaIds.h"          /* countdowns by id */
#include "CLuaStartOptions.h" /* the quick start and fetch */
#include "CLuaBatch.h"        /* ticks in a row */
#include "CLuaTickEscape.h"   /* can a hook keep its `t`? */
#include "CLuaLimits.h"       /* the memory cap and the instruction budget */
#include "CLuaInterrupt.h"    /* signals that stop Lua code */
#include "CLuaCPULimit.h"     /* the CPU-time limit per callback, Ctrl-Z */
#include "CLuaScriptHooks.h"  /* debug.sethook beside the host's hooks */
#include "CLuaCallback.h"     /* a callback's bracket, where the limits meet */
#include "CLuaCoverage.h"   /* --coverage: the line hook that counts in C */
#include "CLuaPrint.h"
#include "CLuaStdlib.h"
#include "CLuaVersion.h"
#include <lauxlib.h>
#include <lualib.h>

#endif
