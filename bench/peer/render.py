#!/usr/bin/env python3
"""Peer baseline of `make bench`: render the Arista EOS configuration of
every EOS switch of a fabricc build from its model.json with a Jinja2
template (eos.j2), as template-based tools do, and write the files.

    render.py BUILD_DIR OUT_DIR

Prints "<switches> <load seconds> <render and write seconds>" (reading
model.json is timed apart: it holds every device of the fabric, while
only the EOS switches are rendered) and exits 1 if any file differs from
the <switch>.eos.cfg fabricc wrote, so both sides produce the same text.
"""
import json
import os
import sys
import time

import jinja2

EOS_THRESHOLDS = {"1/128", "1/64", "1/32", "1/16", "1/8", "1/4", "1/2", "1", "2", "4", "8"}
SPEEDS = {1000: "forced 1000full", 10000: "forced 10000full", 25000: "forced 25gfull",
          40000: "forced 40gfull", 50000: "forced 50gfull", 100000: "forced 100gfull",
          200000: "200g-4", 400000: "400g-8", 800000: "800g-8"}


def ints(v):
    return " ".join(str(x) for x in v) if v else "none"


def number(x):
    """A float as Go's strconv.FormatFloat(x, 'f', -1, 64) writes it."""
    s = repr(float(x))
    return s[:-2] if s.endswith(".0") else s


def speed_text(mbps):
    return "%dG" % (mbps // 1000) if mbps >= 1000 and mbps % 1000 == 0 else "%dM" % mbps


def assumed(pg):
    h = pg.get("headroom")
    if not h:
        return ""
    return "; for %s m at %s, port MTU %d B, lossless MTU %d B, small packets %d %%" % (
        number(h["cable_meters"]), speed_text(h["speed_mbps"]), h["port_mtu_bytes"],
        h["lossless_mtu_bytes"], h["small_packet_percent"])


def vlans(ids):
    if not ids:
        return "none"
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return ",".join(parts)


def seconds(ms):
    return ("%d.%03d" % (ms // 1000, ms % 1000)).rstrip("0").rstrip(".")


def merge(occurrences):
    """The system-wide MMU profile lines of each PG or queue index 0-7;
    None for an index no port has (written as its no-forms)."""
    out = []
    for index in range(8):
        occ = occurrences.get(index)
        if not occ:
            out.append(None)
            continue
        lossless = any(o[0] for o in occ)
        m = {"index": index, "lossless": lossless, "mixed": lossless and any(not o[0] for o in occ), "size": 0, "alpha": ""}
        for o in occ:
            if o[0] != lossless:
                continue
            m["size"] = max(m["size"], o[1])
            if o[2] and not m["alpha"]:
                m["alpha"] = o[2]
        out.append(m)
    return out


def groups(tc_of):
    return [(tc, " ".join(str(i) for i, t in enumerate(tc_of) if t == tc)) for tc in range(8) if tc in tc_of]


def tc_to_cos(q):
    """targets/eos TCToCoS: a class's priority for its traffic class,
    else the lowest priority mapped there, else the traffic class."""
    out = list(range(8))
    for tc in range(8):
        for p in reversed(range(len(q["priority_to_tc"]))):
            if q["priority_to_tc"][p] == tc:
                out[tc] = p
    for c in reversed(q["classes"]):
        if 0 <= c["traffic_class"] < 8 and 0 <= c.get("priority", 0) < 8:
            out[c["traffic_class"]] = c.get("priority", 0)
    return out


def guarantee_need_kbps(sw):
    """targets/eos GuaranteeNeedKbps: one largest frame (MTU + 22 B) per
    polling interval, in kbit/s rounded up; 0 without the watchdog."""
    wd = sw["pfc_watchdog"]
    if not wd.get("enabled"):
        return 0
    mtu = max([p.get("mtu", 0) for p in sw["ports"]] + [0]) or 9214
    poll = wd.get("polling_interval_ms") or 100
    return -(-((mtu + 22) * 8) // poll)


def guarantee_percent(sw):
    """targets/eos GuaranteePercent: the smallest whole share of the
    slowest watchdog port that covers guarantee_need_kbps, 1-100."""
    need = guarantee_need_kbps(sw)
    if not need:
        return 0
    speeds = [p["speed_mbps"] for p in sw["ports"]
              if p.get("pfc_watchdog") and p.get("pfc_priorities") and p.get("speed_mbps")]
    if not speeds:
        return 1
    slowest = min(speeds)
    return min(max(-(-(need * 100) // (slowest * 1000)), 1), 100)


def speed_token(p):
    """targets/eos speedToken: the lane forms where the port's lanes
    are not the usual count for its speed."""
    mbps, lanes = p["speed_mbps"], p.get("lanes", 0)
    if (mbps, lanes) in ((50000, 1), (100000, 1), (100000, 2), (200000, 2), (400000, 4)):
        return "%dg-%d" % (mbps // 1000, lanes)
    return SPEEDS[mbps]


def context(fabric, sw):
    """What the template needs beyond the model: the values AVD-style
    tools compute in Python before rendering."""
    ports = sw["ports"]
    lossless_pool = {p["name"]: p["type"] == "lossless" for p in sw.get("pools") or []}
    pgs, queues = {}, {}
    for p in ports:
        for pg in p.get("priority_groups") or []:
            pgs.setdefault(pg["index"], []).append((pg["lossless"], pg["size_bytes"], pg["shared_alpha"]))
        for eq in p.get("egress_queues") or []:
            queues.setdefault(eq["traffic_class"], []).append(
                (lossless_pool.get(eq["pool"], False), eq["reserved_bytes"], eq["shared_alpha"]))
    # The MMU profile's headroom: the largest per-port sum of bytes in
    # flight over the lossless groups, the first port that needs it, and
    # the ports with a lossless group with their own sums.
    own = [(p["name"], sum(pg["xoff_bytes"] for pg in p.get("priority_groups") or [] if pg["lossless"]),
            any(pg["lossless"] for pg in p.get("priority_groups") or [])) for p in ports]
    most, most_port = 0, ""
    for name, need, _ in own:
        if need > most:
            most, most_port = need, name
    lossless_ports = [need for _, need, lossless in own if lossless]
    asic = (sw["hardware"].get("asic") or "").lower()
    q = fabric["qos"]
    tc_of_dscp = [q["priority_to_tc"][p] for p in q["dscp_to_priority"]]
    return {
        "fabric": fabric, "sw": sw,
        "has_buffers": bool(pgs or queues or sw.get("pools")),
        "mmu": "trident" in asic or "tomahawk" in asic,
        "max_headroom": most, "headroom_port": most_port,
        "lossless_ports": len(lossless_ports), "own_bytes": sum(lossless_ports),
        "pgs": merge(pgs), "queues": merge(queues),
        "uses_cos": any(p["trust"] == "pcp" for p in ports),
        "txq": "uc-tx-queue" if "trident" in asic or "tomahawk" in asic else "tx-queue",
        "cos_groups": groups(q["priority_to_tc"]), "dscp_groups": groups(tc_of_dscp),
        "tc_cos_groups": groups(tc_to_cos(q)), "guarantee": guarantee_percent(sw), "need_kbps": guarantee_need_kbps(sw),
        "eos_thresholds": EOS_THRESHOLDS,
    }


def main():
    build, out = sys.argv[1], sys.argv[2]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.dirname(os.path.abspath(__file__))),
                             keep_trailing_newline=True, autoescape=False)
    env.filters.update(ints=ints, assumed=assumed, vlans=vlans, seconds=seconds, speed=speed_token)
    start = time.monotonic()
    with open(os.path.join(build, "model.json")) as f:
        fabric = json.load(f)
    loaded = time.monotonic()
    template = env.get_template("eos.j2")
    switches = [sw for sw in fabric["switches"] if sw["platform"] == "eos"]
    for sw in switches:
        text = template.render(context(fabric, sw))
        with open(os.path.join(out, sw["name"] + ".eos.cfg"), "w") as f:
            f.write(text)
    took = time.monotonic() - loaded
    differ = 0
    for sw in switches:
        name = sw["name"] + ".eos.cfg"
        with open(os.path.join(out, name)) as a, open(os.path.join(build, sw["name"], name)) as b:
            if a.read() != b.read():
                differ += 1
                if differ == 1:
                    print("differs from fabricc:", name, file=sys.stderr)
    print(len(switches), "%.3f" % (loaded - start), "%.3f" % took)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
