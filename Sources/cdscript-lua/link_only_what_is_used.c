/* SwiftPM links every executable with swiftc, which adds the Swift runtime's
 * libraries whether or not a program uses them: libswiftCore.so in a debug
 * build, libstdc++.so beside the runtime linked in (scripts/build-release).
 * Loading either costs a `cdscript-lua` start more than all of Lua's own
 * start-up (release: about 1.9 ms of CPU instead of 1.0 ms, perf stat).
 *
 * swiftc hands the linker the entries of this section (the way Swift modules
 * ask for their libraries) ahead of the runtime's libraries, so --as-needed
 * here makes the linker record only the libraries this C program calls into:
 * Lua and libc. (Package.swift's -nostartfiles keeps the Swift start-up
 * object out, which would otherwise call into the runtime.) PlainLuaInterpreterTests
 * checks the executable's needed libraries, so a toolchain that stops honouring
 * this fails a test instead of slowing every start. */
__attribute__((used, section(".swift1_autolink_entries")))
static const char link_only_what_is_used[] = "-Wl,--as-needed";
