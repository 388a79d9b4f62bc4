#!/usr/bin/python3
"""Drive simulated switches with the unmodified netmiko client.

Reads a job file (JSON, written by clients_test.go): one entry per
switch with its netmiko device_type, address, the environment variable
holding its password, the show commands to send and the configuration
lines to send with send_config_set. For every switch it connects,
enters enable mode, sends each command, sends the configuration lines
(netmiko enters configuration mode with its own default command), and
prints one JSON object per call: switch, call, ok, output or error.
Passwords are read from the environment and never printed.
"""
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from netmiko import ConnectHandler


def run(job, known_hosts):
    password = os.environ[job["password_env"]]
    calls = []

    def record(call, fn):
        try:
            out = fn()
            calls.append({"switch": job["name"], "call": call, "ok": True, "output": out})
        except Exception as exc:  # report every failure, keep going
            calls.append({"switch": job["name"], "call": call, "ok": False, "error": "%s: %s" % (type(exc).__name__, exc)})

    conn = {}

    def connect():
        conn["c"] = ConnectHandler(
            device_type=job["device_type"], host=job["host"], port=job["port"],
            username=job["username"], password=password, secret=password if job["sudo"] else "",
            fast_cli=not job["sudo"],
            ssh_strict=True, system_host_keys=False, alt_host_keys=True,
            alt_key_file=known_hosts, allow_agent=False, use_keys=False)
        return conn["c"].find_prompt()

    record("connect", connect)
    if "c" not in conn:
        return calls
    c = conn["c"]
    record("enable", lambda: c.enable() or c.find_prompt())
    for cmd in job["commands"]:
        record("send_command " + cmd, lambda cmd=cmd: c.send_command(cmd))
    if job["config"]:
        record("send_config_set", lambda: c.send_config_set(job["config"]))
    record("disconnect", lambda: c.disconnect() or "")
    return calls


def main():
    with open(sys.argv[1]) as f:
        jobs = json.load(f)
    out = []
    with ThreadPoolExecutor(max_workers=8) as pool:
        for calls in pool.map(lambda job: run(job, sys.argv[2]), jobs):
            out.extend(calls)
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
