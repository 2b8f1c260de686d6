/*
 * The benchmark's yardstick: the least an evhttp server can do for a request.
 *
 * One thread, one event base, libevent's evhttp, exactly as the service's
 * adapter uses it. Every request to any path is read whole by evhttp and
 * answered with a fixed JSON body (by default the service's reply to the
 * typical /body message; with --reply-file, the bytes of that file, so a
 * /compose comparison can send exactly the service's /compose reply), so the
 * difference to the service is the service's own work: routing, JSON in and
 * out, the rules, metrics.
 *
 * Build: gcc -O2 -o reference-server reference-server.c $(pkg-config --cflags --libs libevent)
 * Usage: reference-server [--port N] [--reply-file PATH]   (port 0: the kernel picks; 127.0.0.1 only)
 * Prints {"event":"listening","address":"127.0.0.1","port":N} on stdout once bound.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

/* Byte for byte what the service answers for payloads/body-typical.json. */
static const char reply_json[] =
    "{\"body\":\"Hey team, the deploy of build 4182 finished. The dashboard looks green; run make "
    "verify locally if you touched the old new config. If anything looks off, ping @ana or reply "
    "here \xf0\x9f\x91\x8d\",\"units\":180,\"truncated\":false,\"inputCut\":false}";

/* The reply sent: reply_json, or the contents of --reply-file. */
static const char *reply_bytes = reply_json;
static size_t reply_length = sizeof reply_json - 1;

/* Reads the whole file at path (at most 1 MiB) into reply_bytes; 0 on success. */
static int load_reply(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return -1;
    static char buffer[1 << 20];
    size_t length = fread(buffer, 1, sizeof buffer, file);
    int failed = ferror(file) || !feof(file);
    fclose(file);
    if (failed) return -1;
    reply_bytes = buffer;
    reply_length = length;
    return 0;
}

static void on_request(struct evhttp_request *req, void *arg) {
    (void)arg;
    /* Consume the request body as the service must, then answer. */
    struct evbuffer *input = evhttp_request_get_input_buffer(req);
    evbuffer_drain(input, evbuffer_get_length(input));

    struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
    evhttp_add_header(headers, "Content-Type", "application/json");

    struct evbuffer *reply = evbuffer_new();
    if (reply == NULL) {
        evhttp_send_error(req, HTTP_INTERNAL, NULL);
        return;
    }
    evbuffer_add_reference(reply, reply_bytes, reply_length, NULL, NULL);
    evhttp_send_reply(req, HTTP_OK, "OK", reply);
    evbuffer_free(reply);
}

static void on_signal(evutil_socket_t fd, short events, void *arg) {
    (void)fd;
    (void)events;
    event_base_loopbreak((struct event_base *)arg);
}

int main(int argc, char **argv) {
    int port = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) {
            port = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            i++; /* accepted for symmetry with the service; always one thread */
        } else if (strcmp(argv[i], "--reply-file") == 0 && i + 1 < argc) {
            if (load_reply(argv[++i]) != 0) {
                fprintf(stderr, "reference-server: cannot read %s (or it is over 1 MiB)\n", argv[i]);
                return 66;
            }
        } else {
            fprintf(stderr, "usage: %s [--port N] [--reply-file PATH]\n", argv[0]);
            return 64;
        }
    }
    signal(SIGPIPE, SIG_IGN);

    int status = 1;
    struct event_base *base = event_base_new();
    struct evhttp *http = NULL;
    struct event *sigint = NULL, *sigterm = NULL;
    if (base == NULL) goto err;
    http = evhttp_new(base);
    if (http == NULL) goto err;
    evhttp_set_gencb(http, on_request, NULL);
    evhttp_set_max_body_size(http, 64 * 1024);

    struct evhttp_bound_socket *bound = evhttp_bind_socket_with_handle(http, "127.0.0.1", (ev_uint16_t)port);
    if (bound == NULL) {
        fprintf(stderr, "reference-server: cannot bind 127.0.0.1:%d\n", port);
        goto err;
    }
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *)&address, &length) != 0) goto err;
    printf("{\"event\":\"listening\",\"address\":\"127.0.0.1\",\"port\":%d}\n", ntohs(address.sin_port));
    fflush(stdout);

    sigint = evsignal_new(base, SIGINT, on_signal, base);
    sigterm = evsignal_new(base, SIGTERM, on_signal, base);
    if (sigint == NULL || sigterm == NULL) goto err;
    event_add(sigint, NULL);
    event_add(sigterm, NULL);

    event_base_dispatch(base);
    status = 0;

err:
    if (sigterm) event_free(sigterm);
    if (sigint) event_free(sigint);
    if (http) evhttp_free(http);
    if (base) event_base_free(base);
    return status;
}
