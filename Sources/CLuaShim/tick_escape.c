#include "CLuaTickEscape.h"
#include "CLuaWrappers.h"
#include <lauxlib.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- can a hook keep its `t`? ----------------------------------------------
 * Every tick hands a hook a `t` it may keep (`kept[i] = t` stays right), so a
 * tick used to cost an allocation and its collection. Most hooks only read
 * fields of `t` and let it go; for those one reused object is indistinguishable
 * from a fresh one. This file proves that from the hook's bytecode, once per
 * function: `t` is the function's register 0, and the proof holds when that
 * register is only ever read by the instructions that index it (t.remaining,
 * t[k], t[1]), compared with constants, or tested for truth, and no closure
 * captures it. Anything else (a move, a call with `t` among its arguments, a
 * store, a return, an upvalue, a vararg function, a C function) counts as
 * keeping it. The analysis reads the function's dump (lua_dump, the stable 5.4
 * format), since the bytecode itself is not in Lua's public API. */

enum {
    OP_MOVE = 0, OP_SETUPVAL = 10, OP_GETTABUP = 11, OP_GETTABLE = 12, OP_GETI = 13, OP_GETFIELD = 14,
    OP_SETTABUP = 15, OP_SETTABLE = 16, OP_SETI = 17, OP_SETFIELD = 18, OP_NEWTABLE = 19, OP_SELF = 20,
    OP_ADDI = 21, OP_SHLI = 33, OP_ADD = 34, OP_SHR = 45, OP_MMBIN = 46, OP_MMBINI = 47, OP_MMBINK = 48,
    OP_UNM = 49, OP_LEN = 52, OP_CONCAT = 53, OP_CLOSE = 54, OP_TBC = 55, OP_JMP = 56, OP_EQ = 57,
    OP_LT = 58, OP_LE = 59, OP_EQK = 60, OP_EQI = 61, OP_LTI = 62, OP_GEI = 65, OP_TEST = 66,
    OP_TESTSET = 67, OP_CALL = 68, OP_TAILCALL = 69, OP_RETURN = 70, OP_RETURN0 = 71, OP_RETURN1 = 72,
    OP_FORLOOP = 73, OP_TFORLOOP = 77, OP_SETLIST = 78, OP_CLOSURE = 79, OP_VARARG = 80,
    OP_VARARGPREP = 81, OP_EXTRAARG = 82
};

/* Whether instruction `i` may let the value in register 0 go anywhere but a
 * temporary inside the instruction itself. Errs towards "yes". */
static int reads_register_zero_unsafely(uint32_t i) {
    int op = (int)(i & 0x7F);
    int a = (int)((i >> 7) & 0xFF);
    int k = (int)((i >> 15) & 1);
    int b = (int)((i >> 16) & 0xFF);
    int c = (int)((i >> 24) & 0xFF);
    if (op >= 1 && op <= 9) return 0;                 /* loads (they write), GETUPVAL */
    switch (op) {
    case OP_MOVE: return b == 0;
    case OP_SETUPVAL: return a == 0;
    case OP_GETTABUP: return 0;
    /* Indexing `t` runs its C __index; indexing anything else with `t` as the key
     * could run a Lua __index with it. */
    case OP_GETTABLE: return c == 0;
    case OP_GETI: case OP_GETFIELD: return 0;
    case OP_SETTABUP: return !k && c == 0;
    case OP_SETTABLE: return a == 0 || b == 0 || (!k && c == 0);
    case OP_SETI: case OP_SETFIELD: return a == 0 || (!k && c == 0);
    case OP_NEWTABLE: return 0;
    case OP_SELF: return b == 0 || (!k && c == 0);
    case OP_MMBIN: return a == 0 || b == 0;
    case OP_MMBINI: case OP_MMBINK: return a == 0;
    case OP_CONCAT: return a == 0;
    case OP_CLOSE: return 0;
    case OP_TBC: return a == 0;
    case OP_JMP: return 0;
    /* Another userdata's __eq or __lt could be a Lua function. */
    case OP_EQ: case OP_LT: case OP_LE: return a == 0 || b == 0;
    case OP_EQK: case OP_EQI: case OP_TEST: return 0;
    case OP_TESTSET: return b == 0;
    case OP_CALL: case OP_TAILCALL: case OP_RETURN: case OP_RETURN1: return a == 0;
    case OP_RETURN0: return 0;
    case OP_SETLIST: return a == 0;
    case OP_VARARG: case OP_VARARGPREP: case OP_EXTRAARG: return 0;
    /* OP_CLOSURE is checked through the new function's upvalues. */
    case OP_CLOSURE: return 0;
    default: break;
    }
    if (op >= OP_ADDI && op <= OP_SHLI) return b == 0;  /* arithmetic with a constant */
    if (op >= OP_ADD && op <= OP_SHR) return b == 0 || c == 0;
    if (op >= OP_UNM && op <= OP_LEN) return b == 0;
    if (op >= OP_LTI && op <= OP_GEI) return a == 0;
    if (op >= OP_FORLOOP && op <= OP_TFORLOOP) return a == 0;
    return 1;
}

typedef struct dump_buffer {
    unsigned char *bytes;
    size_t length, capacity;
    int failed;
} dump_buffer;

static int collect(lua_State *L, const void *p, size_t size, void *ud) {
    (void)L;
    dump_buffer *d = (dump_buffer *)ud;
    if (d->length + size > d->capacity) {
        size_t capacity = d->capacity ? d->capacity : 256;
        while (capacity < d->length + size) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(d->bytes, capacity);
        if (grown == NULL) {
            d->failed = 1;
            return 1;
        }
        d->bytes = grown;
        d->capacity = capacity;
    }
    memcpy(d->bytes + d->length, p, size);
    d->length += size;
    return 0;
}

typedef struct reader {
    const unsigned char *p, *end;
    int bad;
} reader;

static unsigned byte_at(reader *r) {
    if (r->p >= r->end) {
        r->bad = 1;
        return 0;
    }
    return *r->p++;
}

static void skip(reader *r, size_t n) {
    if ((size_t)(r->end - r->p) < n) {
        r->bad = 1;
        r->p = r->end;
    } else {
        r->p += n;
    }
}

/* lundump.c's loadSize: 7 bits a byte, most significant first, the last byte marked. */
static size_t size_at(reader *r) {
    size_t x = 0;
    unsigned b;
    do {
        b = byte_at(r);
        if (x >> 50) r->bad = 1;
        x = (x << 7) | (b & 0x7F);
    } while (!r->bad && (b & 0x80) == 0);
    return r->bad ? 0 : x;
}

static void skip_string(reader *r) {
    size_t n = size_at(r);
    if (n > 0) skip(r, n - 1);
}

enum { VNIL = 0, VFALSE = 1, VTRUE = 17, VNUMINT = 3, VNUMFLT = 19, VSHRSTR = 4, VLNGSTR = 20 };

static void skip_constants(reader *r) {
    size_t n = size_at(r);
    for (size_t i = 0; i < n && !r->bad; i++) {
        switch (byte_at(r)) {
        case VNIL: case VFALSE: case VTRUE: break;
        case VNUMINT: case VNUMFLT: skip(r, 8); break;
        case VSHRSTR: case VLNGSTR: skip_string(r); break;
        default: r->bad = 1;
        }
    }
}

static void skip_debug(reader *r) {
    skip(r, size_at(r));                                       /* lineinfo */
    size_t n = size_at(r);                                     /* abslineinfo */
    for (size_t i = 0; i < n && !r->bad; i++) { size_at(r); size_at(r); }
    n = size_at(r);                                            /* locvars */
    for (size_t i = 0; i < n && !r->bad; i++) { skip_string(r); size_at(r); size_at(r); }
    n = size_at(r);                                            /* upvalue names */
    for (size_t i = 0; i < n && !r->bad; i++) skip_string(r);
}

/* Reads one function of the dump. Sets *captures when one of its upvalues is
 * its parent's register 0. For the hook itself (`top`), returns whether `t`
 * can be kept, and where its code is; for the functions inside it, the result
 * is unused. */
static int read_function(reader *r, int top, int *captures, const unsigned char **code_out, size_t *ncode_out) {
    skip_string(r);                                            /* source */
    size_at(r);                                                /* linedefined */
    size_at(r);                                                /* lastlinedefined */
    unsigned params = byte_at(r);
    unsigned vararg = byte_at(r);
    byte_at(r);                                                /* maxstacksize */
    size_t ncode = size_at(r);
    const unsigned char *code = r->p;
    if (ncode > (size_t)(r->end - r->p) / 4) r->bad = 1;
    if (code_out) *code_out = code;
    if (ncode_out) *ncode_out = ncode;
    skip(r, ncode * 4);
    skip_constants(r);
    size_t nup = size_at(r);
    *captures = 0;
    for (size_t i = 0; i < nup && !r->bad; i++) {
        unsigned instack = byte_at(r), idx = byte_at(r);
        byte_at(r);                                            /* kind */
        if (instack && idx == 0) *captures = 1;
    }
    int kept = 0;
    size_t nprotos = size_at(r);
    for (size_t i = 0; i < nprotos && !r->bad; i++) {
        int child_captures = 0;
        read_function(r, 0, &child_captures, NULL, NULL);
        if (child_captures) kept = 1;
    }
    skip_debug(r);
    if (!top || r->bad) return 1;
    if (params == 0 && !vararg) return 0;                      /* `t` never arrives */
    if (vararg) return 1;
    for (size_t i = 0; i < ncode && !kept; i++) {
        uint32_t instruction;
        memcpy(&instruction, code + 4 * i, 4);
        if (reads_register_zero_unsafely(instruction)) kept = 1;
    }
    return kept;
}

/* Dumps the Lua function at `index` and reads it: returns whether its first
 * argument can be kept (1 when unsure), and where its code is in *dump. */
static int read_dump(lua_State *L, int index, dump_buffer *d, const unsigned char **code, size_t *ncode) {
    lua_pushvalue(L, index);
    int status = lua_dump(L, collect, d, 1);
    lua_pop(L, 1);
    /* The header: signature, version 5.4, format 0, LUAC_DATA, the sizes of an
     * instruction, an integer and a number, LUAC_INT and LUAC_NUM. */
    static const unsigned char header[] = {0x1B, 'L', 'u', 'a', 0x54, 0, 0x19, 0x93, '\r', '\n', 0x1A, '\n', 4, 8, 8};
    const size_t header_size = sizeof header + 8 + 8;
    if (status != 0 || d->failed || d->length <= header_size + 1 || memcmp(d->bytes, header, sizeof header) != 0)
        return 1;
    reader r = {d->bytes + header_size + 1, d->bytes + d->length, 0}; /* +1: the closure's upvalue count */
    int captures = 0;
    int kept = read_function(&r, 1, &captures, code, ncode);
    return kept || r.bad || r.p != r.end;
}

/* The opcode numbers above are Lua 5.4's (checked against `luac5.4 -l`). A build
 * that numbers them otherwise must not be trusted: this known function has to
 * come out as expected first, or no hook is ever judged local. */
static int opcodes_as_expected(lua_State *L) {
    static const char source[] =
        "return function(t) x = t.a; if t == nil then return t end; local u = t; return t end";
    /* GETFIELD 1 0, SETTABUP, EQK 0, JMP, RETURN1 0, MOVE 1 0, RETURN1 0, RETURN0 */
    static const int expected[][3] = {
        {OP_GETFIELD, 1, 0}, {OP_SETTABUP, -1, -1}, {OP_EQK, 0, -1}, {OP_JMP, -1, -1},
        {OP_RETURN1, 0, -1}, {OP_MOVE, 1, 0}, {OP_RETURN1, 0, -1}, {OP_RETURN0, -1, -1},
    };
    if (luaL_loadstring(L, source) != LUA_OK) return 0;
    lua_call(L, 0, 1);
    dump_buffer d = {NULL, 0, 0, 0};
    const unsigned char *code = NULL;
    size_t ncode = 0;
    int kept = read_dump(L, -1, &d, &code, &ncode);
    lua_pop(L, 1);
    int ok = kept && ncode == sizeof expected / sizeof expected[0];
    for (size_t i = 0; ok && i < ncode; i++) {
        uint32_t instruction;
        memcpy(&instruction, code + 4 * i, 4);
        int op = (int)(instruction & 0x7F), a = (int)((instruction >> 7) & 0xFF), b = (int)((instruction >> 16) & 0xFF);
        ok = op == expected[i][0] && (expected[i][1] < 0 || a == expected[i][1]) && (expected[i][2] < 0 || b == expected[i][2]);
    }
    free(d.bytes);
    return ok;
}

/* Whether the Lua function at `index` provably lets its first argument go. */
static int analyse(lua_State *L, int index) {
    /* 0: not checked yet; 1: as expected; -1: not. Per process (one Lua library),
     * and states on other threads may ask at the same time. */
    static atomic_int opcodes_checked = 0;
    int checked = atomic_load_explicit(&opcodes_checked, memory_order_relaxed);
    if (checked == 0) {
        checked = opcodes_as_expected(L) ? 1 : -1;
        atomic_store_explicit(&opcodes_checked, checked, memory_order_relaxed);
    }
    if (checked < 0) return 0;
    dump_buffer d = {NULL, 0, 0, 0};
    int local = !read_dump(L, index, &d, NULL, NULL);
    free(d.bytes);
    return local;
}

static const char VERDICTS_KEY = 0;

static int verdict(lua_State *L) {
    /* One verdict per function, in a table with weak keys: a million countdowns
     * sharing one hook analyse it once. */
    cd_push_weak_keyed_table(L, &VERDICTS_KEY);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, -2) == LUA_TBOOLEAN) return 1;
    lua_pop(L, 1);
    int local = analyse(L, 1);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, local);
    lua_rawset(L, -3);
    lua_pushboolean(L, local);
    return 1;
}

int cd_tick_stays_local(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TFUNCTION || lua_iscfunction(L, index)) return 0;
    index = lua_absindex(L, index);
    /* A verdict already made is read without a protected call (raw reads never
     * raise): countdowns started in a loop share their hook. */
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &VERDICTS_KEY) == LUA_TTABLE) {
        lua_pushvalue(L, index);
        int found = lua_rawget(L, -2) == LUA_TBOOLEAN;
        int local = lua_toboolean(L, -1);
        lua_pop(L, 2);
        if (found) return local;
    } else {
        lua_pop(L, 1);
    }
    lua_pushcfunction(L, verdict);
    lua_pushvalue(L, index);
    if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
        lua_pop(L, 1);
        return 0;
    }
    int local = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return local;
}
