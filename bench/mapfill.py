#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/mapfill.py PID [NAME...] - entries in the BPF maps a process holds.

Finds the map ids in /proc/PID/fdinfo, opens each map by id and counts its
keys with BPF_MAP_GET_NEXT_KEY: an outside view of how full lockscope's
tables are, independent of lockscope's own reading.  Prints JSON
{name: {"entries": N, "max": M}}.  Needs root.
"""
import ctypes
import json
import os
import re
import sys

SYS_BPF = 321  # x86_64
BPF_MAP_GET_NEXT_KEY = 4
BPF_MAP_GET_FD_BY_ID = 14
BPF_OBJ_GET_INFO_BY_FD = 15

libc = ctypes.CDLL(None, use_errno=True)


class GetFdById(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint32), ("next_id", ctypes.c_uint32),
                ("open_flags", ctypes.c_uint32)]


class NextKey(ctypes.Structure):
    _fields_ = [("map_fd", ctypes.c_uint32), ("pad", ctypes.c_uint32),
                ("key", ctypes.c_uint64), ("next_key", ctypes.c_uint64)]


class InfoByFd(ctypes.Structure):
    _fields_ = [("bpf_fd", ctypes.c_uint32), ("info_len", ctypes.c_uint32),
                ("info", ctypes.c_uint64)]


class MapInfo(ctypes.Structure):  # head of struct bpf_map_info
    _fields_ = [("type", ctypes.c_uint32), ("id", ctypes.c_uint32),
                ("key_size", ctypes.c_uint32),
                ("value_size", ctypes.c_uint32),
                ("max_entries", ctypes.c_uint32),
                ("map_flags", ctypes.c_uint32),
                ("name", ctypes.c_char * 16)]


def bpf(cmd, attr):
    r = libc.syscall(SYS_BPF, cmd, ctypes.byref(attr), ctypes.sizeof(attr))
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return r


def map_ids(pid):
    ids = set()
    for fd in os.listdir("/proc/%d/fdinfo" % pid):
        try:
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as f:
                m = re.search(r"^map_id:\s+(\d+)", f.read(), re.M)
        except OSError:
            continue
        if m:
            ids.add(int(m.group(1)))
    return ids


def count(map_id):
    fd = bpf(BPF_MAP_GET_FD_BY_ID, GetFdById(map_id, 0, 0))
    try:
        info = MapInfo()
        bpf(BPF_OBJ_GET_INFO_BY_FD,
            InfoByFd(fd, ctypes.sizeof(info), ctypes.addressof(info)))
        key = ctypes.create_string_buffer(info.key_size)
        nxt = ctypes.create_string_buffer(info.key_size)
        n, prev = 0, 0
        while True:
            a = NextKey(fd, 0, prev, ctypes.addressof(nxt))
            if libc.syscall(SYS_BPF, BPF_MAP_GET_NEXT_KEY, ctypes.byref(a),
                            ctypes.sizeof(a)) < 0:
                break  # ENOENT: last key
            n += 1
            ctypes.memmove(key, nxt, info.key_size)
            prev = ctypes.addressof(key)
            if n > info.max_entries * 2:  # map changed under us: enough
                break
        return info.name.decode(), n, info.max_entries
    finally:
        os.close(fd)


def fill(pid, names=None):
    out = {}
    for i in sorted(map_ids(pid)):
        try:
            name, n, mx = count(i)
        except OSError:
            continue
        if names and name not in names:
            continue
        out[name] = {"entries": n, "max": mx}
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: mapfill.py PID [NAME...]")
    print(json.dumps(fill(int(sys.argv[1]), sys.argv[2:] or None)))
