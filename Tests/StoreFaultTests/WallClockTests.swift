import Foundation
import Testing

/// An LD_PRELOAD library that adds an offset, read from a file on every call, to
/// the wall clock (CLOCK_REALTIME, gettimeofday, time) of the process under test
/// and leaves CLOCK_BOOTTIME and CLOCK_MONOTONIC alone: a wall-clock jump for one
/// process, without root and without touching the machine's clock.
///
/// Debian's libfaketime does the same for C programs, but under it a Swift
/// program's `CommandLine.arguments` comes out empty (seen with faketime 0.9.10),
/// so cdscript could not even find its script.
enum WallShift {
    static let source = #"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <fcntl.h>
    #include <stdlib.h>
    #include <sys/time.h>
    #include <time.h>
    #include <unistd.h>

    static long long offset_ns(void) {
        const char *path = getenv("CDSCRIPT_TEST_WALL_SHIFT_FILE");
        if (!path) return 0;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return 0;
        char buf[64] = {0};
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        return n > 0 ? atoll(buf) : 0;
    }

    static void shift(struct timespec *ts) {
        long long t = (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec + offset_ns();
        ts->tv_sec = t / 1000000000LL;
        ts->tv_nsec = t % 1000000000LL;
    }

    int clock_gettime(clockid_t id, struct timespec *ts) {
        static int (*real)(clockid_t, struct timespec *);
        if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
        int r = real(id, ts);
        if (r == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) shift(ts);
        return r;
    }

    int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
        struct timespec ts;
        if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return -1;
        if (tv) { tv->tv_sec = ts.tv_sec; tv->tv_usec = ts.tv_nsec / 1000; }
        (void)tz;
        return 0;
    }

    time_t time(time_t *out) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        if (out) *out = ts.tv_sec;
        return ts.tv_sec;
    }
    """#

    /// Builds the library once per test run with the C compiler at hand.
    static let library: String? = {
        let dir = Scratch.directory("wallshift")
        let sourcePath = dir + "/wallshift.c", libraryPath = dir + "/wallshift.so"
        try? source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
        for compiler in ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"] where FileManager.default.isExecutableFile(atPath: compiler) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: compiler)
            p.arguments = ["-shared", "-fPIC", "-O1", "-o", libraryPath, sourcePath, "-ldl"]
            try? p.run()
            p.waitUntilExit()
            if p.terminationStatus == 0 { return libraryPath }
        }
        return nil
    }()

    /// Environment for a process whose wall clock is shifted by the number in `file`.
    static func environment(file: String) throws -> [String: String] {
        let library = try #require(library, "no C compiler could build the wall-clock shim")
        return ["LD_PRELOAD": library, "CDSCRIPT_TEST_WALL_SHIFT_FILE": file]
    }

    static func set(_ file: String, seconds: Double) {
        try! String(Int64(seconds * 1e9)).write(toFile: file, atomically: true, encoding: .utf8)
    }
}

extension StoreFaults {
    @Suite("A wall-clock jump moves at countdowns and nothing else", .serialized)
    struct WallClockTests {
        @Test("the shim shifts the wall clock of the process under test, not its boot clock")
        func shimShiftsOnlyTheWallClock() throws {
            let file = Scratch.directory("shift") + "/offset"
            WallShift.set(file, seconds: 3600)
            let before = Date().timeIntervalSince1970
            let run = try LiveProcess.run([Scratch.script("""
                print(os.time())
                countdown.start{ seconds = 0.5, on_done = function() print("done") end }
                """)], environment: try WallShift.environment(file: file))
            #expect(run.status == 0, "\(run.stderr)")
            let shown = try #require(Double(run.lines.first ?? ""))
            #expect(abs(shown - before - 3600) < 3, "os.time() under the shim: \(shown), real \(before)")
            #expect(run.lines.last == "done")
        }

        @Test("a jump of the wall clock during a run: a duration countdown keeps its end, an at countdown follows")
        func jumpDuringRun() throws {
            let file = Scratch.directory("jump") + "/offset"
            WallShift.set(file, seconds: 0)
            let p = try LiveProcess([Scratch.script("""
                local at = os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() + 5)
                countdown.start{ id = "duration", seconds = 3, every = 0.5,
                  on_done = function() print("duration done") end }
                countdown.start{ id = "at", at = at, every = 0.5,
                  on_tick = function(t) if t.elapsed == 0 then print(("at first %.3f"):format(t.remaining)) end end,
                  on_done = function() print("at done") end }
                """)], environment: try WallShift.environment(file: file))
            let first = try #require(p.waitForLine { $0.hasPrefix("at first ") })
            let atRemaining = try #require(Double(first.text.dropFirst("at first ".count)))
            Thread.sleep(forTimeInterval: max(0, first.at + 1 - Date().timeIntervalSince(p.started)))
            WallShift.set(file, seconds: 2) // the wall clock jumps 2 s ahead
            #expect(p.wait() == 0, "\(p.stderr)")
            let durationDone = try #require(p.lines.first { $0.text == "duration done" })
            let atDone = try #require(p.lines.first { $0.text == "at done" })
            #expect(abs(durationDone.at - first.at - 3) < 0.2, "duration ended \(durationDone.at - first.at) s after its start")
            let expectedAt = atRemaining - 2
            #expect(abs(atDone.at - first.at - expectedAt) < 0.2, "at ended \(atDone.at - first.at) s after the start, expected \(expectedAt)")
        }

        @Test("a stored duration countdown picked up after the wall clock was set back an hour keeps its time; an at one follows the clock")
        func storedAcrossAJump() throws {
            let dir = Scratch.directory("stored-jump")
            let seed = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                countdown.start{ id = "d", seconds = 20, persist = true }
                countdown.start{ id = "a", at = os.date("!%Y-%m-%dT%H:%M:%SZ", os.time() + 100), persist = true }
                os.exit(0)
                """)])
            #expect(seed.status == 0, "\(seed.stderr)")
            let seeded = Date()
            let file = Scratch.directory("stored-jump-offset") + "/offset"
            WallShift.set(file, seconds: -3600)
            let later = try LiveProcess.run(["--state-dir", dir, Scratch.script("""
                print(("%.3f"):format(countdown.fetch("d"):remaining()))
                print(("%.3f"):format(countdown.fetch("a"):remaining()))
                os.exit(0)
                """)], environment: try WallShift.environment(file: file))
            #expect(later.status == 0, "\(later.stderr)")
            let values = later.lines.compactMap(Double.init)
            let elapsed = Date().timeIntervalSince(seeded)
            #expect(values.count == 2)
            #expect(abs(values[0] - (20 - elapsed)) < 0.3, "duration: \(values[0]) left after \(elapsed) s")
            #expect(values[1] > 3600 + 95 && values[1] <= 3600 + 100, "at: \(values[1]) left on a clock set back an hour")
        }
    }
}
