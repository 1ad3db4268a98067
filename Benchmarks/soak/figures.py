# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright The FavBlue authors
"""The soak's figures against their pass marks (listed in run.py's docstring), printed as
the soak's closing lines."""
import collections


def difference(a, b):
    """How many lines of `a` are not in `b`, counting repeats."""
    return sum((collections.Counter(a) - collections.Counter(b)).values())


def figures(args, samples, typed, log, stored, reconnects, started, ended, aborted, home):
    minutes = (ended - started) / 60
    warmup = min(15 * 60, (ended - started) / 4)
    after = [s for s in samples if s["t"] >= warmup]
    results = []

    def mark(ok):
        results.append(ok)
        return "PASS" if ok else "FAIL"

    print()
    print(f"FavBlue soak: {minutes:.1f} min, {args.binary}")
    print(f"  chat peer dropping the link every {args.disconnect_every:.0f} s; {args.rate:g} lines/s typed, each echoed; "
          f"busy room {args.busy_devices} devices")
    if warmup < 15 * 60:
        print(f"  (a short run: 'after 15 min' reads 'after {warmup / 60:.1f} min', a quarter of the run)")
    label = "15 min" if warmup >= 15 * 60 else f"{warmup / 60:.1f} min"
    if len(after) >= 2:
        base, end = after[0], after[-1]
        rss = [s["rss_kib"] for s in after]
        change = (end["rss_kib"] - base["rss_kib"]) / base["rss_kib"] * 100
        spread = max(abs(r - base["rss_kib"]) / base["rss_kib"] * 100 for r in rss)
        print(f"  RSS        at {label} {base['rss_kib'] / 1024:.1f} MiB, at the end {end['rss_kib'] / 1024:.1f} MiB "
              f"({change:+.1f} %); range {min(rss) / 1024:.1f}-{max(rss) / 1024:.1f} MiB, "
              f"at most {spread:.1f} % off   {mark(spread <= 5)}")
        fds = [s["fds"] for s in after]
        print(f"  fds        after {label} min {min(fds)}, max {max(fds)} (at {label} {base['fds']}, end {end['fds']})   "
              f"{mark(max(fds) - min(fds) <= 2 and end['fds'] <= base['fds'])}")
        threads = [s["threads"] for s in after]
        print(f"  threads    after {label} min {min(threads)}, max {max(threads)} (at {label} {base['threads']}, "
              f"end {end['threads']})   {mark(max(threads) - min(threads) <= 4 and end['threads'] <= base['threads'] + 2)}")
    else:
        print(f"  RSS, fds, threads: too few samples after {label}   {mark(False)}")

    out_all = stored.get(("outgoing", "sent"), []) + stored.get(("outgoing", "sending"), []) \
        + stored.get(("outgoing", "notSent"), [])
    out_sent = stored.get(("outgoing", "sent"), [])
    incoming = [t for (d, _), texts in stored.items() if d == "incoming" for t in texts]
    print(f"  app→peer   typed {len(typed)}; stored {len(out_all)} (sent {len(out_sent)}, "
          f"not sent {len(stored.get(('outgoing', 'notSent'), []))}, still sending {len(stored.get(('outgoing', 'sending'), []))}); "
          f"peer received {len(log.rx)}")
    print(f"             typed but not stored {difference(typed, out_all)}, stored but not typed {difference(out_all, typed)}; "
          f"received but not stored as sent {difference(log.rx, out_sent)}, stored as sent but not received "
          f"{difference(out_sent, log.rx)}   "
          f"{mark(collections.Counter(typed) == collections.Counter(out_all) and collections.Counter(out_sent) == collections.Counter(log.rx) and len(typed) > 0)}")
    print(f"  peer→app   peer sent {len(log.sent)}; stored {len(incoming)}; sent but not stored {difference(log.sent, incoming)}, "
          f"stored but not sent {difference(incoming, log.sent)}   "
          f"{mark(collections.Counter(log.sent) == collections.Counter(incoming) and len(incoming) > 0)}")
    print(f"  reconnects {reconnects['done']} after {reconnects['drops']} drops by the peer "
          f"(connections {log.connected}, typing paused {reconnects['backlog']} times for a backlog)   "
          f"{mark(reconnects['done'] == reconnects['drops'] and (reconnects['drops'] > 0 or minutes < args.disconnect_every / 60))}")
    busy = [b for b in log.busy if b[0] <= ended]
    if len(busy) >= 2:
        rate = (busy[-1][2] - busy[0][2]) / (busy[-1][0] - busy[0][0])
        pdus = (busy[-1][1] - busy[0][1]) / (busy[-1][0] - busy[0][0])
        print(f"  busy room  {rate:.0f} reports/s handed to FavBlue ({pdus:.0f} PDUs/s on the air)   "
              f"{mark(rate >= 0.9 * args.busy_rate)}")
    else:
        print(f"  busy room  too short to measure   {mark(False)}")
    if aborted:
        print(f"  ABORTED: {aborted}   {mark(False)}")
    print(f"  {'PASS' if all(results) else 'FAIL'} ({sum(results)} of {len(results)} figures pass); "
          f"samples, logs and database in {home}")
    return all(results)
