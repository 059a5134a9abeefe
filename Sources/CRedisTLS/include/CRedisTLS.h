#ifndef CREDIS_TLS_H
#define CREDIS_TLS_H

#include <stddef.h>

/* A TLS byte stream to a Redis server (OpenSSL), the transport under hiredis's
 * reply reader and command formatter when the store URL is rediss://. Debian's
 * hiredis 0.14 has no TLS of its own; this layer only moves bytes, it never reads
 * the protocol.
 *
 * The socket is non-blocking; every call that waits takes a timeout and waits in
 * poll(2), so a server that stops answering costs at most that long, and a
 * shutdown(2) of the descriptor (a terminating signal) ends a wait at once.
 * Every failure writes its reason into `error` (OpenSSL's reason when it has one)
 * and never a secret: no password passes through here. */

typedef struct cdtls_options {
    /* PEM file of CA certificates to trust (NULL: see ca_dir). */
    const char *ca_file;
    /* Directory of hashed CA certificates to trust. With neither ca_file nor ca_dir,
     * the system's CA store. */
    const char *ca_dir;
    /* Client certificate (chain) and its private key, PEM, for mutual TLS. */
    const char *cert_file;
    const char *key_file;
    /* The name sent as SNI and checked against the certificate (NULL: the host). */
    const char *server_name;
    /* Nonzero: no verification of the certificate or its name at all. */
    int insecure;
} cdtls_options;

typedef struct cdtls_connection cdtls_connection;

/* Connects to host:port, then completes a TLS 1.2+ handshake that verifies the
 * server's certificate chain and name (unless insecure), all within timeout_ms.
 * NULL on failure, with the reason in error. */
cdtls_connection *cdtls_connect(const char *host, int port, const cdtls_options *options,
                                int timeout_ms, char *error, size_t error_size);

int cdtls_fd(const cdtls_connection *connection);

/* Writes every byte, waiting up to timeout_ms each time the socket is full.
 * 0 on success, -1 on failure (reason in error). */
int cdtls_write(cdtls_connection *connection, const char *bytes, size_t length, int timeout_ms,
                char *error, size_t error_size);

/* Reads decrypted bytes into buffer: waits up to timeout_ms for the first one
 * (0: does not wait). Returns how many were read, 0 when none came in time,
 * -1 when the connection failed or was closed (reason in error). */
long cdtls_read(cdtls_connection *connection, char *buffer, size_t capacity, int timeout_ms,
                char *error, size_t error_size);

/* Sends close_notify when it can without waiting, closes the socket, frees everything. */
void cdtls_close(cdtls_connection *connection);

#endif
