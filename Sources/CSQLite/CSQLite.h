#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift
// does not import: bound text and blobs are copied by SQLite (the Swift buffers
// they come from do not outlive the bind call).
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// The page cache takes its pages one by one as they are read, instead of a first
// block of 20 written through at once (about 84 KB touched, 20 page faults, for a
// command that reads one record; docs/performance.md, "Linked static"). Takes
// effect before SQLite's first connection; SQLITE_MISUSE after it.
static inline int csqlite_page_cache_on_demand(void) { return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0); }
