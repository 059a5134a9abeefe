#ifndef CLUAINTERNAL_H
#define CLUAINTERNAL_H

/* For functions shared between the shim's own files and not meant for Swift:
 * hidden from the linker's symbol table, so that taking their address or calling
 * them costs what it cost while they were static in one file (no GOT load). */

#define CD_INTERNAL __attribute__((visibility("hidden")))

#endif
