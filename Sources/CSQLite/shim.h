// Debian's SQLite 3 (libsqlite3-dev): the lint cache (LiveLintKit/Cache). See README "Dependencies".
#include <sqlite3.h>
