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

#endif
