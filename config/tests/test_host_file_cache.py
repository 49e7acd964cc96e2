"""`make run`'s shared cache (config/cache.py, HostFileCache): Django's file cache whose writes cost the same however
many entries it keeps, whose `add` never overwrites another process's entry, and whose `incr` counts every call.

Each instance on one folder stands for another gunicorn process of the same host.
"""

from __future__ import annotations

import glob
import os
import pickle
import threading

import pytest

from config.cache import HostFileCache

FOLDERS = HostFileCache.FOLDERS


def host_cache(folder, *, entries: int = 300, timeout: int = 60) -> HostFileCache:
    return HostFileCache(
        str(folder), {"TIMEOUT": timeout, "OPTIONS": {"MAX_ENTRIES": entries, "CULL_FREQUENCY": 3}}
    )


def entries(folder) -> list[str]:
    return glob.glob("**/*.djcache", root_dir=folder, recursive=True)


def test_what_one_process_writes_the_others_read(tmp_path):
    one, other = host_cache(tmp_path), host_cache(tmp_path)
    one.set_many({"page": b"<html>", "token": "abc"})
    assert other.get_many(["page", "token", "missing"]) == {"page": b"<html>", "token": "abc"}
    other.delete("token")
    assert one.get("token") is None


def test_a_write_lists_only_its_own_folder(tmp_path, monkeypatch):
    """Django's file cache lists every file it keeps before each write (4 ms at 3,000 entries): this one lists the
    one folder of 256 the key's file is in."""
    cache = host_cache(tmp_path, entries=10_000)
    for number in range(500):
        cache.set(f"key-{number}", number)
    listed = []
    real_listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path: listed.append(path) or real_listdir(path))
    monkeypatch.setattr(glob, "glob", lambda *args, **kwargs: pytest.fail("the whole cache was listed"))
    cache.set("one-more", 1)
    cache.add("and-another", 2)
    assert set(listed) == {
        os.path.dirname(cache._key_to_file("one-more")),
        os.path.dirname(cache._key_to_file("and-another")),
    }


def test_it_keeps_at_most_max_entries(tmp_path):
    cache = host_cache(tmp_path, entries=3 * FOLDERS)
    for number in range(4000):
        cache.set(f"key-{number}", number)
    kept = entries(tmp_path)
    assert 2 * FOLDERS <= len(kept) <= 3 * FOLDERS
    assert all(
        len(glob.glob("*.djcache", root_dir=tmp_path / folder)) <= 3 for folder in os.listdir(tmp_path)
    )


def test_add_writes_only_where_no_entry_is(tmp_path):
    cache = host_cache(tmp_path)
    assert cache.add("token", "first") is True
    assert cache.add("token", "second") is False
    assert cache.get("token") == "first"
    cache.set("old", "gone", timeout=-1)  # expired
    assert cache.add("old", "new") is True
    assert cache.get("old") == "new"


def test_add_never_overwrites_what_another_process_set_meanwhile(tmp_path, monkeypatch):
    """The tracker's poll reads the board's version from the database on a miss and adds it: a writer's newer
    version set while the reader was adding must win, or a phone at the older version would be told "unchanged"
    (combat/selectors/tracker_poll.py). Django's own `add` checks, then writes over whatever came meanwhile."""
    reader, writer = host_cache(tmp_path), host_cache(tmp_path)
    write = reader._write_content

    def writer_sets_meanwhile(file, timeout, value):
        writer.set("tracker-version:7", 8)
        write(file, timeout, value)

    monkeypatch.setattr(reader, "_write_content", writer_sets_meanwhile)
    assert reader.add("tracker-version:7", 7) is False
    assert writer.get("tracker-version:7") == 8


def test_incr_counts_every_call_from_every_process_and_keeps_the_expiry(tmp_path):
    """The login throttle (config/throttling.py) counts attempts with `add` then `incr`."""
    processes = [host_cache(tmp_path) for _ in range(4)]
    processes[0].add("throttle", 0, timeout=600)
    path = processes[0]._key_to_file("throttle")
    with open(path, "rb") as file:
        expiry = pickle.load(file)  # noqa: S301 - the test's own file

    def count(cache):
        for _ in range(50):
            cache.incr("throttle")

    threads = [threading.Thread(target=count, args=(cache,)) for cache in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert processes[1].get("throttle") == 200
    with open(path, "rb") as file:
        assert pickle.load(file) == expiry  # noqa: S301 - the test's own file
    with pytest.raises(ValueError, match="not found"):
        processes[0].incr("never-set")


def test_clear_forgets_every_entry_of_this_layout_and_djangos_flat_one(tmp_path):
    """`make run` empties its cache as it starts (config/serve.py): also what an older one left in Django's layout."""
    cache = host_cache(tmp_path)
    for number in range(50):
        cache.set(f"key-{number}", number)
    (tmp_path / "0123456789abcdef0123456789abcdef.djcache").write_bytes(b"left by Django's own file cache")
    cache.clear()
    assert entries(tmp_path) == []
    assert cache.get("key-1") is None
