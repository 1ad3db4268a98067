// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright The FavBlue authors
// The libmosquitto functions FavBlue calls, each forwarding to the library loaded on the
// first call. Linking it would load it, with libssl and libcrypto, at every start: about
// 2 ms before main() for a feature most sessions never use. Until it is loaded (or when
// it cannot be) each function fails as the library says it may: NULL or an error code.
#include "CMosquitto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define SONAME "libmosquitto.so.1"

static struct {
  __typeof__ (&mosquitto_lib_init) lib_init;
  __typeof__ (&mosquitto_new) new_;
  __typeof__ (&mosquitto_destroy) destroy;
  __typeof__ (&mosquitto_int_option) int_option;
  __typeof__ (&mosquitto_username_pw_set) username_pw_set;
  __typeof__ (&mosquitto_tls_set) tls_set;
  __typeof__ (&mosquitto_reconnect_delay_set) reconnect_delay_set;
  __typeof__ (&mosquitto_connect_async) connect_async;
  __typeof__ (&mosquitto_disconnect) disconnect;
  __typeof__ (&mosquitto_loop_start) loop_start;
  __typeof__ (&mosquitto_loop_stop) loop_stop;
  __typeof__ (&mosquitto_publish) publish;
  __typeof__ (&mosquitto_subscribe) subscribe;
  __typeof__ (&mosquitto_connect_callback_set) connect_callback_set;
  __typeof__ (&mosquitto_disconnect_callback_set) disconnect_callback_set;
  __typeof__ (&mosquitto_message_callback_set) message_callback_set;
  __typeof__ (&mosquitto_strerror) strerror_;
  __typeof__ (&mosquitto_connack_string) connack_string;
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static int loaded;

static void *
symbol (void *library, const char *name)
{
  void *found = dlsym (library, name);
  if (found == NULL && failure[0] == '\0')
    snprintf (failure, sizeof failure, "%s has no %s", SONAME, name);
  return found;
}

static void
load (void)
{
  // Local: its symbols must not stand in for these forwarders, nor these for its own.
  void *library = dlopen (SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL)
    {
      const char *why = dlerror ();
      snprintf (failure, sizeof failure, "%s", why != NULL ? why : SONAME " could not be loaded");
      return;
    }
  real.lib_init = symbol (library, "mosquitto_lib_init");
  real.new_ = symbol (library, "mosquitto_new");
  real.destroy = symbol (library, "mosquitto_destroy");
  real.int_option = symbol (library, "mosquitto_int_option");
  real.username_pw_set = symbol (library, "mosquitto_username_pw_set");
  real.tls_set = symbol (library, "mosquitto_tls_set");
  real.reconnect_delay_set = symbol (library, "mosquitto_reconnect_delay_set");
  real.connect_async = symbol (library, "mosquitto_connect_async");
  real.disconnect = symbol (library, "mosquitto_disconnect");
  real.loop_start = symbol (library, "mosquitto_loop_start");
  real.loop_stop = symbol (library, "mosquitto_loop_stop");
  real.publish = symbol (library, "mosquitto_publish");
  real.subscribe = symbol (library, "mosquitto_subscribe");
  real.connect_callback_set = symbol (library, "mosquitto_connect_callback_set");
  real.disconnect_callback_set = symbol (library, "mosquitto_disconnect_callback_set");
  real.message_callback_set = symbol (library, "mosquitto_message_callback_set");
  real.strerror_ = symbol (library, "mosquitto_strerror");
  real.connack_string = symbol (library, "mosquitto_connack_string");
  loaded = failure[0] == '\0';
}

static int
ready (void)
{
  pthread_once (&once, load);
  return loaded;
}

const char *
favblue_mosquitto_unavailable (void)
{
  return ready () ? NULL : failure;
}

int
mosquitto_lib_init (void)
{
  return ready () ? real.lib_init () : MOSQ_ERR_NOT_SUPPORTED;
}

struct mosquitto *
mosquitto_new (const char *id, bool clean_session, void *obj)
{
  return ready () ? real.new_ (id, clean_session, obj) : NULL;
}

void
mosquitto_destroy (struct mosquitto *mosq)
{
  if (ready ())
    real.destroy (mosq);
}

int
mosquitto_int_option (struct mosquitto *mosq, enum mosq_opt_t option, int value)
{
  return ready () ? real.int_option (mosq, option, value) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_username_pw_set (struct mosquitto *mosq, const char *username, const char *password)
{
  return ready () ? real.username_pw_set (mosq, username, password) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_tls_set (struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                   const char *keyfile, int (*pw_callback) (char *buf, int size, int rwflag, void *userdata))
{
  return ready () ? real.tls_set (mosq, cafile, capath, certfile, keyfile, pw_callback) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_reconnect_delay_set (struct mosquitto *mosq, unsigned int delay, unsigned int delay_max, bool backoff)
{
  return ready () ? real.reconnect_delay_set (mosq, delay, delay_max, backoff) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_connect_async (struct mosquitto *mosq, const char *host, int port, int keepalive)
{
  return ready () ? real.connect_async (mosq, host, port, keepalive) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_disconnect (struct mosquitto *mosq)
{
  return ready () ? real.disconnect (mosq) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_loop_start (struct mosquitto *mosq)
{
  return ready () ? real.loop_start (mosq) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_loop_stop (struct mosquitto *mosq, bool force)
{
  return ready () ? real.loop_stop (mosq, force) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_publish (struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                   bool retain)
{
  return ready () ? real.publish (mosq, mid, topic, payloadlen, payload, qos, retain) : MOSQ_ERR_NOT_SUPPORTED;
}

int
mosquitto_subscribe (struct mosquitto *mosq, int *mid, const char *sub, int qos)
{
  return ready () ? real.subscribe (mosq, mid, sub, qos) : MOSQ_ERR_NOT_SUPPORTED;
}

void
mosquitto_connect_callback_set (struct mosquitto *mosq, void (*on_connect) (struct mosquitto *, void *, int))
{
  if (ready ())
    real.connect_callback_set (mosq, on_connect);
}

void
mosquitto_disconnect_callback_set (struct mosquitto *mosq, void (*on_disconnect) (struct mosquitto *, void *, int))
{
  if (ready ())
    real.disconnect_callback_set (mosq, on_disconnect);
}

void
mosquitto_message_callback_set (struct mosquitto *mosq,
                                void (*on_message) (struct mosquitto *, void *, const struct mosquitto_message *))
{
  if (ready ())
    real.message_callback_set (mosq, on_message);
}

const char *
mosquitto_strerror (int mosq_errno)
{
  return ready () ? real.strerror_ (mosq_errno) : failure;
}

const char *
mosquitto_connack_string (int connack_code)
{
  return ready () ? real.connack_string (connack_code) : failure;
}
