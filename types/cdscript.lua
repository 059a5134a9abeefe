---@meta cdscript
-- Annotations for lua-language-server: every global, function, field and hook
-- that cdscript gives a script (`cdscript run`), a test file (`cdscript test`)
-- and the terminal view. Point the server at this folder:
--   .luarc.json: { "workspace.library": ["/path/to/cdscript/types"] }
-- Tests/PluginTests/AnnotationTests.swift fails when a function the host
-- installs has no `function` line here.

-- ---------------------------------------------------------------------------
-- Countdowns
-- ---------------------------------------------------------------------------

---A read-only snapshot of one tick, given to hooks. Units are truncated, as clocks show them.
---@class cdscript.Tick
---@field id string? the countdown's id (nil for an anonymous countdown)
---@field remaining number seconds left, never negative
---@field days integer whole days left
---@field hours integer hours left within the day (0-23)
---@field minutes integer minutes left within the hour (0-59)
---@field seconds integer seconds left within the minute (0-59)
---@field tenths integer tenths of a second left within the second (0-9)
---@field elapsed number seconds since the start
---@field progress number elapsed / total, from 0 to 1
---@field missed integer ticks skipped since the last one (the process stalled)
---@field overtime number seconds past the end of an `overtime` countdown; 0 before it

---@alias cdscript.State "running" | "paused" | "finished" | "cancelled"
---@alias cdscript.DoneReason "finished" | "cancelled"
---@alias cdscript.ErrorPolicy "stop" | "continue" | fun(message: string, traceback: string)
---@alias cdscript.Event "start" | "tick" | "done" | "cancel"

---The handle of a countdown. Dropping it never cancels the countdown.
---@class cdscript.Handle
---@field id string? the id given to countdown.start
---@field title string? the stored title of a persistent countdown while it runs (nil without one)
local Handle = {}

---Moves the deadline later; on an ended countdown, starts a new one of that length with the same id, hooks and interval.
---A negative number takes time off: taking off all that is left ends the countdown at once with on_done(t, "finished");
---on an ended countdown it does nothing.
---Calls on_tick at once with the new remaining time (not from the countdown's own on_tick).
---@param seconds number|string seconds, or a duration such as "5m" or "-30s"
---@return cdscript.Handle self
function Handle:append(seconds) end

---Freezes the remaining time and calls on_tick at once with it. On an `at`
---countdown the deadline does not move: only what it shows is frozen.
---@return boolean paused false when it was not running
function Handle:pause() end

---Continues and calls on_tick at once with the remaining time: for an `at`
---countdown the true time left to its unchanged deadline.
---@return boolean resumed false when it was not paused
function Handle:resume() end

---Cancels it; on_done runs with "cancelled".
---@return boolean cancelled false when it had already ended
function Handle:cancel() end

---@return number seconds left, never negative
function Handle:remaining() end

---@return cdscript.State
function Handle:state() end

---@class cdscript.StartOptions
---@field id string? replaces an active countdown with the same id
---@field seconds (number|string)? a duration: seconds (at most 2305843009, about 73 years), or "25m", "1h30m", "1m30.5s" (give this or `at`)
---@field at string? a deadline: "2026-12-01T20:00:00+08:00", "20:00" (local, today or tomorrow)
---@field every (number|string)? seconds between ticks, or a duration such as "1m" (default 1, at least 0.1, at most 2305843009)
---@field on_tick fun(t: cdscript.Tick)? called every `every` seconds and once at the start
---@field on_done fun(t: cdscript.Tick, reason: cdscript.DoneReason)? called once at the end
---@field on_error cdscript.ErrorPolicy? what a hook error does: "stop" (default), "continue", or a function given the message and the traceback ("stack traceback:\n...")
---@field persist boolean? keep it in the store under its id (needs `id`)
---@field title string? with persist: what list and status's {title} show (one line, at most 256 characters)
---@field actions string[]? with persist: the names of end actions `cdscript serve` runs once per end (at most 16, each of A-Z a-z 0-9 _ . -); not with overtime
---@field overtime boolean? past the end, on_done(t, "finished") once, then ticks go on with t.overtime until cancelled; with persist, restarted and following processes show the same time past the end (not with on_end_action)
---@field on_end_action (fun(e: cdscript.EndClaim): (fun(): boolean)?)? runs once per end across every process that follows the stored countdown (needs persist); may return a function polled until it returns true (the action is done then)
---@field end_lease number? seconds a claimant holds an end before another process may take it over (default 30, 0.1 to 86400)
---@field title string? with persist: a title kept with the stored countdown (one line, at most 256 characters), shown by list, status {title} and the bars
---@field actions string[]? with persist: the names of the end actions `cdscript serve` runs at its end (at most 16, each of A-Za-z0-9_.-); names only, never commands

---@class cdscript.EndClaim
---@field id string the stored countdown's id
---@field token integer the fencing token: larger for every later claim of this countdown's ends
---@field ended_at number the end, in seconds since 1970 (UTC)

---@class cdscript.FetchOptions
---@field every (number|string)?
---@field on_tick fun(t: cdscript.Tick)?
---@field on_done fun(t: cdscript.Tick, reason: cdscript.DoneReason)?
---@field on_end_action (fun(e: cdscript.EndClaim): (fun(): boolean)?)?
---@field end_lease number?

---The countdown library (also `require("cdscript")`).
countdown = {}

---The shortest `every` countdown.start takes, in seconds (0.1), for scripts that
---check their own options against it.
---@type number
countdown.shortest_every = 0.1

---Starts a countdown on the shared scheduler.
---@param options cdscript.StartOptions
---@return cdscript.Handle
function countdown.start(options) end

---Picks up a countdown kept in the store by an earlier run.
---@param id string
---@param options cdscript.FetchOptions?
---@return cdscript.Handle?
function countdown.fetch(id, options) end

---@param id string
---@return cdscript.Handle? handle of the active countdown with that id
function countdown.get(id) end

---@return cdscript.Handle[] handles of the active countdowns, in start order
function countdown.list() end

---Cancels every active countdown, in start order.
function countdown.cancel_all() end

---Formats seconds, a tick or a table with `remaining` by a pattern ("hh:mm:ss",
---"mm:ss.t", ...) or by the name of a formatter registered with countdown.formatter.
---@param value number|cdscript.Tick|{remaining: number}
---@param pattern string a pattern or a formatter name
---@return string
function countdown.format(value, pattern) end

---A duration in the one grammar of the command line and `seconds` ("90", "1.5",
---"25m", "1h30m", "-5m") as seconds: 5400 for "1h30m", -300 for "-5m". A number
---is returned as it is; anything else is an error naming the forms.
---@param value string|number
---@return number
function countdown.duration(value) end

---The wall clock in seconds since the Unix epoch, with fractions; inside a hook,
---the instant of its tick; under `cdscript test`, the virtual clock's wall time.
---@return number
function countdown.now() end

---How many ends this process still runs an `on_end_action` for, or waits on
---another process's action for (a run that ends earlier leaves them to others).
---@return integer
function countdown.end_actions() end

---Adds a hook for every countdown: "start", "tick", "done" (finished) or "cancel".
---Global tick hooks see countdowns started after they were added.
---@param event cdscript.Event
---@param fn fun(t: cdscript.Tick, h: cdscript.Handle)
---@return fun(): boolean remove removes this hook (false when already removed)
function countdown.on(event, fn) end

---Registers a named formatter, usable wherever a pattern is; nil removes it.
---@param name string
---@param fn (fun(t: cdscript.Tick): string)?
function countdown.formatter(name, fn) end

---The script's arguments: `arg[0]` is the script's path, `arg[1]`... the rest
---(they are also the main chunk's `...`).
---@type table<integer, string>
arg = {}

-- ---------------------------------------------------------------------------
-- Plugins
-- ---------------------------------------------------------------------------

---Loads a plugin from the plugin path (./plugins, ~/.config/cdscript/plugins,
----plugin-path, CDSCRIPT_PLUGIN_PATH) or a built-in one (bell, notify, exec, log,
---formats) and sets it up with `options`. Returns what its setup returns (or the module).
---@param name string
---@param options table?
---@return any
function use(name, options) end

---@class cdscript.plugins.bell.Options
---@field id string? only this countdown

---@class cdscript.plugins.notify.Options
---@field id string?
---@field title string? default "cdscript"
---@field message string? default 'countdown "ID" finished'
---@field program string? default "notify-send"

---@class cdscript.plugins.exec.Options
---@field id string?
---@field command string[] the program and its arguments; "{id}" is replaced by the countdown's id

---@class cdscript.plugins.outfile.Options
---@field path string the file kept holding the last text written, replaced whole

---What use("outfile") returns: `write(text)` replaces the file with `text` (the same text again writes nothing);
---`append(line)` adds a line to it instead.
---@class cdscript.plugins.outfile.Writer
---@field write fun(text: string)
---@field append fun(line: string): boolean
---@field remove fun()

---@class cdscript.plugins.timer_keys.Options
---@field step number? seconds + and - add and take off (default 10)
---@field note string? the id of the label for what a key did not do (default "note")
---@field ends string? the id of the label `e` shows the end in (default "ends")
---@field note_seconds number? how long a note stays on the full screen (default 3)

---What use("timer_keys") returns: `keys.start(options)` is countdown.start with the keys
---(+ - r e Space) acting on that countdown; `keys.follow(handle, options)` for a fetched one.
---@class cdscript.plugins.timer_keys.Keys
---@field start fun(options: cdscript.StartOptions): cdscript.Handle
---@field follow fun(handle: cdscript.Handle, options: cdscript.StartOptions): cdscript.Handle
---@field wrap fun(options: table): table
---@field note fun(text: string, style: string?)
---@field handle fun(): cdscript.Handle?
---@field actions table<string, fun()>

---A phase of use("sequence"): its name, round, place in the sequence, length and title ("work 2/4").
---@class cdscript.plugins.sequence.Phase
---@field name string
---@field round integer
---@field rounds integer
---@field index integer
---@field count integer
---@field seconds number
---@field title string
---@field last boolean

---@class cdscript.plugins.sequence.Options
---@field id string the one id of every phase
---@field phases { name: string, seconds: number|string }[] one round's phases, in order
---@field rounds integer? how many rounds (default 1)
---@field full_last_round boolean? run the last round whole (default: it ends with its first phase)
---@field title string? put before each phase's title ("TITLE · work 2/4")
---@field persist boolean? store each phase under `id` with its title
---@field every number|string? each phase's tick interval
---@field on_phase fun(phase: cdscript.plugins.sequence.Phase)?
---@field on_tick fun(t: cdscript.Tick, phase: cdscript.plugins.sequence.Phase)?
---@field on_done fun(t: cdscript.Tick, reason: string, phase: cdscript.plugins.sequence.Phase)?
---@field on_end_action fun(e: cdscript.EndClaim)?
---@field end_lease number?
---@field keys cdscript.plugins.timer_keys.Keys?

---What use("sequence") returns.
---@class cdscript.plugins.sequence.Sequence
---@field start fun(): cdscript.Handle the first phase, or the stored one continued
---@field phase fun(): cdscript.plugins.sequence.Phase?
---@field handle fun(): cdscript.Handle?
---@field phases fun(): cdscript.plugins.sequence.Phase[]

---@class cdscript.plugins.log.Options
---@field id string?
---@field path string the JSON-lines file
---@field ticks boolean? false to leave tick events out

-- ---------------------------------------------------------------------------
-- Terminal view (cdscript run; a virtual screen in cdscript test)
-- ---------------------------------------------------------------------------

---Words separated by spaces: bold, dim, italic, underline, inverse, and one colour of
---black red green yellow blue magenta cyan white ("bold yellow").
---@alias cdscript.Style string

---A key: one character ("r", "+") or space, enter, tab, backspace, escape, up, down, left, right.
---@alias cdscript.Key string

---The view: elements laid out top to bottom, in the order they were created.
---It opens with the first element; from then on the run ends when it is closed.
view = {}

---@class cdscript.view.LabelSpec
---@field id string
---@field text string
---@field style cdscript.Style?

---A line of text.
---@param spec cdscript.view.LabelSpec
---@return string id
function view.label(spec) end

---@class cdscript.view.BigSpec
---@field id string
---@field text string digits, ":", ".", "-", "d", "h", "m", "s" and space
---@field style cdscript.Style?

---Large block digits.
---@param spec cdscript.view.BigSpec
---@return string id
function view.big(spec) end

---@class cdscript.view.ProgressSpec
---@field id string
---@field value number from 0 to 1 (clamped)

---A bar with a percentage.
---@param spec cdscript.view.ProgressSpec
---@return string id
function view.progress(spec) end

---@class cdscript.view.ButtonSpec
---@field id string
---@field label string
---@field key cdscript.Key? the key that presses it ("q" is kept for quitting)
---@field enabled boolean? default true; a disabled button ignores its key
---@field on_press fun(id: string)?

---A button pressed by its key.
---@param spec cdscript.view.ButtonSpec
---@return string id
function view.button(spec) end

---Changes any fields but `id`; nothing changes when one of them is wrong.
---@param id string
---@param fields table
function view.set(id, fields) end

---@param id string
---@return table fields the element's fields (`id`, `kind`, its fields, `on_press`)
function view.get(id) end

---The terminal window's title.
---@param text string
function view.title(text) end

---Rings the terminal bell.
function view.bell() end

---Closes the view: the run ends after the current pass.
function view.close() end

---Acts as if `key` was typed.
---@param key cdscript.Key
---@return boolean acted true when it did something (false for Space when nothing was running to pause)
function view.press(key) end

---The screen as text, rows joined by newlines (in plain mode: each element's line).
---@return string
function view.screen() end

---@class cdscript.PausedText
---@field text string? shown on the bottom row while Space holds countdowns paused (default "paused — Space to resume")
---@field style string? its style (default "bold inverse")
---@field hidden boolean? true: show nothing while paused, in full screen and plain mode
---@field resumed_text string? the plain-mode line printed when Space resumes (default "resumed")

---What the view shows while Space holds countdowns paused. Fields left out keep their value.
---@param fields cdscript.PausedText
function view.paused_text(fields) end

---Runs `fn(key)` when `key` is typed and no button binds it; "any" catches every such key
---but q. A handler of Space replaces its pause of all countdowns; a handler of q replaces
---its quit (end the run with view.close()). Ctrl-C always quits. `fn` nil removes it.
---@param key cdscript.Key|"any"
---@param fn fun(key: string)|nil
function view.on_key(key, fn) end

---True when the view prints lines (--plain, or stdout is no terminal), false on the full screen.
---@return boolean
function view.plain() end

---@class cdscript.ViewConfig
---@field plain boolean? print lines (as --plain)
---@field color boolean? false: no colours (as --no-color)

---The run's --plain and --no-color, for a script that reads its own options; only before
---the view's first element. `cdscript test` keeps its virtual screen.
---@param config cdscript.ViewConfig
function view.configure(config) end

-- ---------------------------------------------------------------------------
-- cdscript test
-- ---------------------------------------------------------------------------

---@param name string
---@param fn fun()
function describe(name, fn) end

---@param name string
---@param fn fun()? without it, the test is pending
function it(name, fn) end

---@param name string
function pending(name) end

---@param fn fun()
function before_each(fn) end

---@param fn fun()
function after_each(fn) end

-- busted's other blocks and hooks, with busted's ordering (issue 14).

---@param name string
---@param fn fun()
function context(name, fn) end

---A describe whose changes to globals and package.loaded are undone after it.
---@param name string
---@param fn fun()
function insulate(name, fn) end

---A describe whose changes to globals stay for the rest of the file.
---@param name string
---@param fn fun()
function expose(name, fn) end

---@param name string
---@param fn fun()?
function spec(name, fn) end

---@param name string
---@param fn fun()?
function test(name, fn) end

---Runs once before the block's children (busted 2: strict_setup).
---@param fn fun()
function setup(fn) end

---Runs once after the block's children (busted 2: strict_teardown).
---@param fn fun()
function teardown(fn) end

---@param fn fun()
function strict_setup(fn) end

---@param fn fun()
function strict_teardown(fn) end

---Runs once, before the first test of the block that runs.
---@param fn fun()
function lazy_setup(fn) end

---Runs after the block when its lazy_setup ran.
---@param fn fun()
function lazy_teardown(fn) end

---In a describe: its tests and blocks run in a shuffled order (busted's
---shuffle; the same seed gives busted's order). `randomize(false)` turns it off.
---@param on_or_seed (boolean|integer)?
---@param seed integer?
function randomize(on_or_seed, seed) end

---Inside a test: runs `fn` after the test's body, even when it failed.
---@param fn fun()
function finally(fn) end

---@class cdscript.PluginCall
---@field plugin string "exec", "notify", "log" or "bell"
---@field argv string[]? the command exec or notify would have run
---@field path string? the file log would have appended to
---@field line string? the line log would have written

---What the built-in plugins did in this test, instead of doing it.
---@param name string? a plugin name; all plugins when nil
---@return cdscript.PluginCall[]
function plugin_calls(name) end

---@class cdscript.Expectation
---@field never cdscript.Expectation the negated assertions
local Expectation = {}

---Raw equality (the same table, not an equal one).
---@param expected any
function Expectation.to_be(expected) end

---Deep equality.
---@param expected any
function Expectation.to_equal(expected) end

---@param expected number
---@param tolerance number? default 1e-9
function Expectation.to_be_near(expected, tolerance) end

---The function raises an error containing or matching `pattern`.
---@param pattern string?
function Expectation.to_throw(pattern) end

---@param actual any
---@return cdscript.Expectation
function expect(actual) end

---The value matches the snapshot stored in __snapshots__/FILE.snap (written on
---the first run; `cdscript test --update-snapshots` rewrites it).
function Expectation.to_match_snapshot() end

---@class cdscript.Spy
---@field count integer calls so far
---@field calls any[][] the arguments of each call (luassert's `vals`/`refs` too)
---@operator call:any

---luassert's spy: `spy(fn)` or `spy.new(fn)` makes one, `spy.on(t, key)` wraps t[key].
spy = {}

---@param fn function?
---@return cdscript.Spy
function spy.new(fn) end

---@param t table
---@param key any
---@return cdscript.Spy
function spy.on(t, key) end

---@param value any
---@return boolean
function spy.is_spy(value) end

---luassert's stub: `stub(t, key)` replaces t[key] with a spy that returns nothing (or `.returns(...)`).
stub = {}

---@param t table
---@param key any
---@return cdscript.Spy
function stub.new(t, key, ...) end

---luassert's mock: spies (or stubs) on every function of a table.
mock = {}

---@param t table
---@param dostub boolean?
---@return table
function mock.new(t, dostub) end

---@param t table
function mock.clear(t) end

---@param t table
function mock.revert(t) end

---luassert's argument matchers: `match._`, `match.is_number()`, `match.is_same(x)`...
match = {}

---@return boolean
function match.is_matcher(value) end

---@return boolean
function match.is_ref_matcher(value) end

---@return any
function match.state(...) end

---Runs a script inside the test's host, with `...` as its arguments.
---@param path string relative to the test file
---@return any ...
function load_script(path, ...) end

---@return string[] lines this test has printed so far
function printed() end

---The virtual clock of cdscript test.
clock = {}

---Fires every tick due in the range; returns the new time.
---@param seconds number
---@return number now
function clock.advance(seconds) end

---Moves to the next due tick (or end) and fires it.
---@return number? now nil when nothing is scheduled
function clock.next() end

---Fires until no countdown remains.
---@param options {limit: integer?}?
---@return number now
function clock.run_all(options) end

---@return number seconds since the file started
function clock.now() end

---@return number seconds since the epoch
function clock.wall() end

---Sets the wall clock (an ISO 8601 date or seconds since the epoch) and runs a scheduler pass.
---@param date string|number
function clock.set_wall(date) end

---Time passes with no ticks, then one catch-up pass runs.
---@param seconds number
function clock.stall(seconds) end

---What happens to real processes, on the virtual clock of cdscript test. The test's own
---state is the first process; others run scripts in Lua states of their own, on the same
---clock and the test's store (fresh for each test), and see each other's changes at once.
process = {}

---Starts a script as another process (`arg` and `...` are the arguments); returns it once
---its main chunk has run. An error in the main chunk is raised here.
---@param path string read from the current directory, else next to the test file
---@param ... string|number
---@return TestProcess
function process.start(path, ...) end

---A process that fetches the stored countdown `id` and follows it (a second terminal).
---@param id string
---@param every number? its tick interval (default: the stored one)
---@return TestProcess
function process.follow(id, every) end

---The machine reboots after being down `seconds`: every process is killed (this one's
---countdowns stop, silently), the boot id changes and the wall clock moves on by `seconds`.
---@param seconds number
function process.reboot(seconds) end

---The test's stored countdowns as `cdscript list --json` shows them now, ordered by id; a
---field the listing writes as null is absent (deadline when paused, overtime without overtime,
---title without a title).
---@return {id: string, state: "running"|"paused"|"finished"|"overtime", kind: "duration"|"wall", remaining: number, total: number, every: number, deadline: string?, overtime: number?, title: string?, actions: string[]}[]
function process.stored() end

---Another process on the test's machine.
---@class TestProcess
local TestProcess = {}

---kill -9: nothing more runs in it (no hook); what it stored stays.
---@return TestProcess self
function TestProcess:kill() end

---Kills it (unless it was) and starts the same script with the same arguments as a new
---process, which this object then is.
---@return TestProcess self
function TestProcess:restart() end

---SIGSTOP: its ticks and the changes others make wait.
---@return TestProcess self
function TestProcess:suspend() end

---SIGCONT: it applies what changed meanwhile, then catches up in one tick (`missed`).
---@return TestProcess self
function TestProcess:resume() end

---@return "running"|"suspended"|"killed"
function TestProcess:state() end

---Runs Lua code in the process; returns what it returns. Arguments and results are copied
---(nil, booleans, numbers, strings and tables of them).
---@param code string
---@return any ...
function TestProcess:run(code, ...) end

---@return string[] lines it printed
function TestProcess:printed() end

---@return {id: string?, remaining: number, missed: integer, time: number}[] every tick of its countdowns
function TestProcess:ticks() end

---@return {id: string?, reason: "finished"|"cancelled", time: number}[] every end of its countdowns
function TestProcess:ends() end

---Its countdown `id`, seen and controlled from the test as its handle there.
---@param id string
---@return RemoteCountdown
function TestProcess:countdown(id) end

---@return string its virtual terminal, as view.screen() there
function TestProcess:screen() end

---@param id string
---@return table? fields of its view's element, as view.get(id) there
function TestProcess:get(id) end

---@param key string
---@return boolean pressed a key in its view, as view.press(key) there
function TestProcess:press(key) end

---A countdown of another process, as its handle there.
---@class RemoteCountdown
local RemoteCountdown = {}

---@return number? seconds left; nil when it has no active countdown of that id
function RemoteCountdown:remaining() end

---@return string? nil when it has no active countdown of that id
function RemoteCountdown:state() end

---@param seconds number
---@return boolean
function RemoteCountdown:append(seconds) end

---@return boolean
function RemoteCountdown:pause() end

---@return boolean
function RemoteCountdown:resume() end

---@return boolean
function RemoteCountdown:cancel() end
