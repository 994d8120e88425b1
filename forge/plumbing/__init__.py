"""What every layer stands on, standard library (and a maintained client) only: where sessions are kept
(storage), one SQLite file shared by threads and processes (sqlite_db), a private redis-server for tests and
benchmarks (local_redis), the compare-and-set retry loop (retrying), credentials out of URLs (redaction)
and seeds derived from names (seeding)."""
