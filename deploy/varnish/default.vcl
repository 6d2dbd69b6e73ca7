vcl 4.1;
# ADR 0119 (issue #30): Varnish in front of the site. Debian's Varnish 7.1 with varnish-modules
# (xkey). The origin decides what is stored and for how long (Cache-Control with s-maxage,
# stale-while-revalidate, stale-if-error: server/shared-cache.ts); this file keeps the requests
# a cache must not key on away from it, and answers purges from the operator's addresses.
#
# `npm run varnish -- --listen HOST:PORT --backend HOST:PORT` fills in the backend below.

import std;
import xkey;

backend origin {
    .host = "BACKEND_HOST";
    .port = "BACKEND_PORT";
    .connect_timeout = 2s;
    .first_byte_timeout = 30s;
    # a down origin is seen within seconds, so grace answers instead of waiting on it. Lenient:
    # an origin busy rendering many misses may answer /healthz late, and a sick backend turns
    # every miss into a 503 (seen in bench:cdn with a 1 s timeout)
    .probe = {
        .url = "/healthz";
        .interval = 2s;
        .timeout = 5s;
        .window = 5;
        .threshold = 2;
        .initial = 2;
    }
}

# Who may PURGE: loopback by default; list the site's machines here (or with -p/--purge-from).
acl purgers {
    "127.0.0.1";
    "::1";
    PURGE_ACL
}

sub vcl_recv {
    # The client's address, replacing anything it sent (rate limits and the render budget count
    # it: the origin trusts this proxy only, TRUST_PROXY).
    set req.http.X-Forwarded-For = client.ip;
    # unkeyed headers that an application could reflect (web cache poisoning): never passed
    unset req.http.X-Forwarded-Host;
    unset req.http.X-Forwarded-Proto;
    unset req.http.X-Forwarded-Port;
    unset req.http.X-Forwarded-Server;
    unset req.http.X-Host;
    unset req.http.X-Original-URL;
    unset req.http.X-Rewrite-URL;
    unset req.http.X-HTTP-Method-Override;
    unset req.http.Forwarded;

    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "PURGE is not allowed from this address"));
        }
        # Soft purge by tag (xkey-softpurge: space-separated tags): the stale page is still
        # served while the new one renders.
        if (req.http.xkey-softpurge) {
            return (synth(200, "Soft-purged " + xkey.softpurge(req.http.xkey-softpurge)));
        }
        if (req.http.xkey-purge) {
            return (synth(200, "Purged " + xkey.purge(req.http.xkey-purge)));
        }
        return (purge);
    }

    if (req.method != "GET" && req.method != "HEAD") {
        # POSTs (forms, sounds-like uploads) go to the origin, never stored, body and all
        return (pass);
    }
    # the site sets no cookie and reads none on these pages
    unset req.http.Cookie;
    unset req.http.Authorization;
    # The only variation the origin declares is Accept-Encoding. Varnish's gzip support
    # (http_gzip_support, on by default) asks the origin for gzip whatever the client said and
    # gunzips at delivery for a client whose header lacks "gzip": normalised to "br", every page
    # and script went out uncompressed (Lighthouse through the cache: 573 KiB of JavaScript on
    # /catalog against 190 straight). Every browser that takes br takes gzip: gzip or nothing.
    if (req.http.Accept-Encoding ~ "gzip") {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }
    # a fragment never reaches a server; drop an empty query mark
    set req.url = regsub(req.url, "\?$", "");
    return (hash);
}

sub vcl_hash {
    # the URL and the Host the site is reached at; nothing else of the request
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    }
    return (lookup);
}

# vcl_hit is Varnish's own: a fresh object is delivered; one past its TTL but within its grace
# is delivered at once while one background fetch refreshes it (or while the origin is down);
# concurrent misses of one URL wait for one fetch (request coalescing).

sub vcl_backend_response {
    # keep what the origin marked storable; everything else is not stored (a hit-for-miss)
    if (beresp.http.Cache-Control !~ "(public|s-maxage)" || beresp.http.Cache-Control ~ "(no-store|private)" || beresp.http.Set-Cookie) {
        set beresp.uncacheable = true;
        set beresp.ttl = 10s;
        return (deliver);
    }
    # tags for xkey (Fastly's Surrogate-Key convention)
    if (beresp.http.Surrogate-Key) {
        set beresp.http.xkey = beresp.http.Surrogate-Key;
    }
    # stale-if-error of the origin's Cache-Control: how long a stale page outlives a down origin
    # (Varnish 7.1 reads stale-while-revalidate as grace itself; the longer of the two wins)
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+") {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, ".*stale-if-error=([0-9]+).*", "\1") + "s", beresp.grace);
    }
    # kept past its grace so a changed page is revalidated (If-None-Match: a 304 from the origin)
    set beresp.keep = 1h;
    return (deliver);
}

sub vcl_backend_error {
    # the origin is down and nothing is in grace: a short plain answer, not stored
    set beresp.http.Cache-Control = "no-store";
}

sub vcl_deliver {
    unset resp.http.xkey;
    unset resp.http.Via;
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
    # a browser keeps the origin's max-age; s-maxage was for this cache only
    return (deliver);
}
