// The only C the Swift code sees: libevent's event2 headers, plus inline
// wrappers for what Swift cannot import (function-like macros). Only the
// EventHTTP target imports this module.
#ifndef CLIBEVENT_SHIM_H
#define CLIBEVENT_SHIM_H

// The system headers come first so they are the toolchain's Glibc module:
// libevent's event-config.h defines _GNU_SOURCE, and system headers parsed
// after that would declare types (fd_set) differently from Swift's Glibc.
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <sys/select.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

// evsignal_new is a macro over event_new with EV_SIGNAL|EV_PERSIST.
static inline struct event *clibevent_signal_new(struct event_base *base, int signal_number,
                                                 event_callback_fn callback, void *argument) {
    return evsignal_new(base, signal_number, callback, argument);
}

// evtimer_new is a macro over event_new with no file descriptor.
static inline struct event *clibevent_timer_new(struct event_base *base, int persist,
                                                event_callback_fn callback, void *argument) {
    return event_new(base, -1, persist ? EV_PERSIST : 0, callback, argument);
}

// evuser_new is a macro: an event that only fires through event_active.
static inline struct event *clibevent_user_event_new(struct event_base *base,
                                                     event_callback_fn callback, void *argument) {
    return evuser_new(base, callback, argument);
}

// The header list's layout comes from the TAILQ_HEAD macro; walking it here
// keeps that layout out of Swift.
static inline struct evkeyval *clibevent_header_first(struct evkeyvalq *headers) {
    return headers->tqh_first;
}

// The entry's link field comes from the TAILQ_ENTRY macro (see above).
static inline struct evkeyval *clibevent_header_next(struct evkeyval *header) {
    return header->next.tqe_next;
}

// Appends `entry` to the list (TAILQ_INSERT_TAIL): a field the adapter owns,
// on the list only while evhttp reads it (see ReplyWriter), never freed by evhttp.
static inline void clibevent_header_append(struct evkeyvalq *headers, struct evkeyval *entry) {
    entry->next.tqe_next = NULL;
    entry->next.tqe_prev = headers->tqh_last;
    *headers->tqh_last = entry;
    headers->tqh_last = &entry->next.tqe_next;
}

// Takes `entry` off the list it is on (TAILQ_REMOVE).
static inline void clibevent_header_unlink(struct evkeyvalq *headers, struct evkeyval *entry) {
    if (entry->next.tqe_next != NULL) {
        entry->next.tqe_next->next.tqe_prev = entry->next.tqe_prev;
    } else {
        headers->tqh_last = entry->next.tqe_prev;
    }
    *entry->next.tqe_prev = entry->next.tqe_next;
}

#endif
