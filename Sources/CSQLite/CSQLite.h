#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift
// does not import: bound text and blobs are copied by SQLite (the Swift buffers
// they come from do not outlive the bind call).
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
