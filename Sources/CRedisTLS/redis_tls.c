#define _GNU_SOURCE
#include "CRedisTLS.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

struct cdtls_connection {
    int fd;
    SSL_CTX *context;
    SSL *ssl;
};

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int left_ms(long long deadline) {
    long long left = deadline - now_ms();
    return left < 0 ? 0 : (int)left;
}

/* Waits until fd is ready for `events` or the deadline passes: 1 ready, 0 timed out,
 * -1 failed. A signal that interrupts the wait is not a failure (the descriptor is
 * shut down when it means to end the run). */
static int wait_for(int fd, short events, long long deadline) {
    for (;;) {
        struct pollfd p = { .fd = fd, .events = events, .revents = 0 };
        int n = poll(&p, 1, left_ms(deadline));
        if (n > 0) return 1;
        if (n == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

/* The most telling reason OpenSSL queued (the last one), or NULL. */
static const char *queued_reason(void) {
    unsigned long code = 0, last;
    while ((last = ERR_get_error()) != 0) code = last;
    return code == 0 ? NULL : ERR_reason_error_string(code);
}

/* Describes a failed SSL_* call: OpenSSL's reason, the system's, or a closed peer. */
static void describe(SSL *ssl, int ssl_error, int saved_errno, const char *doing, char *error, size_t size) {
    const char *reason = queued_reason();
    if (ssl_error == SSL_ERROR_SSL && ssl != NULL) {
        long verified = SSL_get_verify_result(ssl);
        if (verified != X509_V_OK) {
            snprintf(error, size, "%s: certificate verify failed (%s)", doing, X509_verify_cert_error_string(verified));
            return;
        }
    }
    if (reason != NULL) {
        snprintf(error, size, "%s: %s", doing, reason);
    } else if (ssl_error == SSL_ERROR_ZERO_RETURN || (ssl_error == SSL_ERROR_SYSCALL && saved_errno == 0)) {
        snprintf(error, size, "%s: the server closed the connection", doing);
    } else if (ssl_error == SSL_ERROR_SYSCALL) {
        snprintf(error, size, "%s: %s", doing, strerror(saved_errno));
    } else {
        snprintf(error, size, "%s: TLS error %d", doing, ssl_error);
    }
}

static int connect_tcp(const char *host, int port, long long deadline, char *error, size_t size) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *addresses = NULL;
    int looked_up = getaddrinfo(host, service, &hints, &addresses);
    if (looked_up != 0) {
        snprintf(error, size, "%s", gai_strerror(looked_up));
        return -1;
    }
    int fd = -1;
    int last_errno = ETIMEDOUT;
    for (struct addrinfo *a = addresses; a != NULL && fd < 0; a = a->ai_next) {
        int s = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (s < 0) { last_errno = errno; continue; }
        if (connect(s, a->ai_addr, a->ai_addrlen) != 0) {
            if (errno != EINPROGRESS) { last_errno = errno; close(s); continue; }
            int ready = wait_for(s, POLLOUT, deadline);
            int failure = 0;
            socklen_t length = sizeof failure;
            if (ready <= 0) {
                last_errno = ready == 0 ? ETIMEDOUT : errno;
                close(s);
                continue;
            }
            if (getsockopt(s, SOL_SOCKET, SO_ERROR, &failure, &length) != 0 || failure != 0) {
                last_errno = failure != 0 ? failure : errno;
                close(s);
                continue;
            }
        }
        fd = s;
    }
    freeaddrinfo(addresses);
    if (fd < 0) {
        snprintf(error, size, "%s", strerror(last_errno));
        return -1;
    }
    /* Commands are small and answered one by one: do not hold them back (as hiredis does). */
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return fd;
}

static int is_ip_address(const char *name) {
    unsigned char address[16];
    return inet_pton(AF_INET, name, address) == 1 || inet_pton(AF_INET6, name, address) == 1;
}

/* OpenSSL names a file it cannot open only as "system lib": say what the system said. */
static int readable(const char *path, const char *what, char *error, size_t size) {
    if (path == NULL || access(path, R_OK) == 0) return 1;
    snprintf(error, size, "cannot read %s %s: %s", what, path, strerror(errno));
    return 0;
}

static SSL_CTX *make_context(const cdtls_options *options, char *error, size_t size) {
    if (!readable(options->ca_file, "the CA certificates", error, size)
        || !readable(options->ca_dir, "the CA certificates' directory", error, size)
        || !readable(options->cert_file, "the client certificate", error, size)
        || !readable(options->key_file, "the client key", error, size)) {
        return NULL;
    }
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) {
        snprintf(error, size, "cannot set up TLS: %s", queued_reason() ? queued_reason() : "out of memory");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    if (!options->insecure) {
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
        int loaded;
        if (options->ca_file != NULL || options->ca_dir != NULL) {
            loaded = SSL_CTX_load_verify_locations(context, options->ca_file, options->ca_dir);
            if (loaded != 1) {
                const char *reason = queued_reason();
                snprintf(error, size, "cannot read the CA certificates %s%s%s: %s",
                         options->ca_file ? options->ca_file : "",
                         options->ca_file && options->ca_dir ? " and " : "",
                         options->ca_dir ? options->ca_dir : "", reason ? reason : "unreadable");
                SSL_CTX_free(context);
                return NULL;
            }
        } else if (SSL_CTX_set_default_verify_paths(context) != 1) {
            const char *reason = queued_reason();
            snprintf(error, size, "cannot read the system's CA certificates: %s", reason ? reason : "unreadable");
            SSL_CTX_free(context);
            return NULL;
        }
    }
    if (options->cert_file != NULL || options->key_file != NULL) {
        if (options->cert_file == NULL || options->key_file == NULL) {
            snprintf(error, size, "a client certificate needs both a certificate file and a key file");
            SSL_CTX_free(context);
            return NULL;
        }
        if (SSL_CTX_use_certificate_chain_file(context, options->cert_file) != 1) {
            const char *reason = queued_reason();
            snprintf(error, size, "cannot read the client certificate %s: %s", options->cert_file, reason ? reason : "unreadable");
            SSL_CTX_free(context);
            return NULL;
        }
        if (SSL_CTX_use_PrivateKey_file(context, options->key_file, SSL_FILETYPE_PEM) != 1
            || SSL_CTX_check_private_key(context) != 1) {
            const char *reason = queued_reason();
            snprintf(error, size, "cannot use the client key %s: %s", options->key_file, reason ? reason : "unreadable");
            SSL_CTX_free(context);
            return NULL;
        }
    }
    return context;
}

/* Sets the name the certificate must carry (a DNS name or an IP address) and SNI. */
static int name_the_server(SSL *ssl, const char *host, const cdtls_options *options) {
    const char *name = options->server_name != NULL ? options->server_name : host;
    if (!is_ip_address(name)) {
        /* SNI is for names only (RFC 6066 forbids literal addresses). */
        if (SSL_set_tlsext_host_name(ssl, name) != 1) return 0;
    }
    if (options->insecure) return 1;
    if (is_ip_address(name)) {
        return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1;
    }
    SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    return SSL_set1_host(ssl, name) == 1;
}

cdtls_connection *cdtls_connect(const char *host, int port, const cdtls_options *options,
                                int timeout_ms, char *error, size_t error_size) {
    ERR_clear_error();
    long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    SSL_CTX *context = make_context(options, error, error_size);
    if (context == NULL) return NULL;
    int fd = connect_tcp(host, port, deadline, error, error_size);
    if (fd < 0) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL *ssl = SSL_new(context);
    if (ssl == NULL || SSL_set_fd(ssl, fd) != 1 || !name_the_server(ssl, host, options)) {
        const char *reason = queued_reason();
        snprintf(error, error_size, "cannot set up TLS: %s", reason ? reason : "out of memory");
        SSL_free(ssl);
        SSL_CTX_free(context);
        close(fd);
        return NULL;
    }
    for (;;) {
        ERR_clear_error();
        errno = 0;
        int done = SSL_connect(ssl);
        if (done == 1) break;
        int saved_errno = errno;
        int why = SSL_get_error(ssl, done);
        int ready;
        if (why == SSL_ERROR_WANT_READ) {
            ready = wait_for(fd, POLLIN, deadline);
        } else if (why == SSL_ERROR_WANT_WRITE) {
            ready = wait_for(fd, POLLOUT, deadline);
        } else {
            describe(ssl, why, saved_errno, "TLS handshake failed", error, error_size);
            ready = -2;
        }
        if (ready == 1) continue;
        if (ready == 0) {
            snprintf(error, error_size, "TLS handshake failed: no answer within %d ms (is this a TLS port?)", timeout_ms);
        } else if (ready == -1) {
            snprintf(error, error_size, "TLS handshake failed: %s", strerror(errno));
        }
        SSL_free(ssl);
        SSL_CTX_free(context);
        close(fd);
        return NULL;
    }
    cdtls_connection *connection = calloc(1, sizeof *connection);
    if (connection == NULL) {
        snprintf(error, error_size, "out of memory");
        SSL_free(ssl);
        SSL_CTX_free(context);
        close(fd);
        return NULL;
    }
    connection->fd = fd;
    connection->context = context;
    connection->ssl = ssl;
    return connection;
}

int cdtls_fd(const cdtls_connection *connection) {
    return connection->fd;
}

/* Waits for what a WANT_READ/WANT_WRITE asks; 1 to retry, 0 timed out, -1 failed
 * (error written). */
static int wait_as_asked(cdtls_connection *c, int result, int saved_errno, long long deadline,
                         const char *doing, char *error, size_t size) {
    int why = SSL_get_error(c->ssl, result);
    int ready;
    if (why == SSL_ERROR_WANT_READ) {
        ready = wait_for(c->fd, POLLIN, deadline);
    } else if (why == SSL_ERROR_WANT_WRITE) {
        ready = wait_for(c->fd, POLLOUT, deadline);
    } else {
        describe(c->ssl, why, saved_errno, doing, error, size);
        return -1;
    }
    if (ready < 0) snprintf(error, size, "%s: %s", doing, strerror(errno));
    return ready;
}

/* A server that refuses this client's certificate (TLS 1.3) says why in an alert
 * and closes; a write can fail on the closed socket before anything was read.
 * When the alert is there to read, its reason replaces the write's error. */
static void explain_refusal(cdtls_connection *c, char *error, size_t size) {
    char byte;
    ERR_clear_error();
    errno = 0;
    int n = SSL_read(c->ssl, &byte, 1);
    if (n > 0 || SSL_get_error(c->ssl, n) != SSL_ERROR_SSL) return;
    const char *reason = queued_reason();
    if (reason != NULL) snprintf(error, size, "TLS connection refused: %s", reason);
}

int cdtls_write(cdtls_connection *c, const char *bytes, size_t length, int timeout_ms,
                char *error, size_t error_size) {
    long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    size_t sent = 0;
    while (sent < length) {
        ERR_clear_error();
        errno = 0;
        size_t part = length - sent > 1 << 30 ? 1 << 30 : length - sent;
        int n = SSL_write(c->ssl, bytes + sent, (int)part);
        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        int ready = wait_as_asked(c, n, errno, deadline, "TLS write failed", error, error_size);
        if (ready == 0) snprintf(error, error_size, "timed out writing to the server");
        if (ready != 1) {
            explain_refusal(c, error, error_size);
            return -1;
        }
    }
    return 0;
}

long cdtls_read(cdtls_connection *c, char *buffer, size_t capacity, int timeout_ms,
                char *error, size_t error_size) {
    long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
        ERR_clear_error();
        errno = 0;
        int n = SSL_read(c->ssl, buffer, capacity > 1 << 30 ? 1 << 30 : (int)capacity);
        if (n > 0) return n;
        int ready = wait_as_asked(c, n, errno, deadline, "TLS read failed", error, error_size);
        if (ready == 0) {
            if (timeout_ms > 0) snprintf(error, error_size, "Resource temporarily unavailable");
            return 0;
        }
        if (ready != 1) return -1;
    }
}

void cdtls_close(cdtls_connection *c) {
    if (c == NULL) return;
    /* No close_notify: the server may be gone already (a write would raise SIGPIPE),
     * and Redis needs none; closing the socket ends the session. */
    SSL_free(c->ssl);
    SSL_CTX_free(c->context);
    close(c->fd);
    free(c);
}
