package io.dta.appliance.stat;

import java.util.Locale;

/**
 * Whether the process writing a counters file is running, as a reader in another process can tell it from the file's
 * header and the process table.
 */
public enum WriterStatus
{
    /** Heartbeat fresh: the writer runs. */
    RUNNING,
    /** Alive (or in another PID namespace) but no heartbeat for {@link #STALLED_AFTER_MILLIS}. */
    STALLED,
    /** Closed the file: the values are final. */
    EXITED,
    /** Gone without closing the file. */
    ENDED;

    /** A heartbeat older than this (the writer beats every 100 ms) means the writer stalled or ended. */
    public static final long STALLED_AFTER_MILLIS = 5_000;

    /**
     * @param reader    the counters file.
     * @param nowMillis epoch milliseconds.
     * @return the writer's status.
     */
    public static WriterStatus of(final CountersFileReader reader, final long nowMillis)
    {
        if (0 != reader.closedMillis())
        {
            return EXITED;
        }
        if (ended(reader, nowMillis))
        {
            return ENDED;
        }
        return stale(reader, nowMillis) ? STALLED : RUNNING;
    }

    /**
     * Whether the writer ended without closing its file: its pid is not alive here, and either it ran in this PID
     * namespace (so its pid would be seen: at once after a SIGKILL) or its heartbeat is stale. A writer in another
     * PID namespace (a container sharing {@code /dev/shm}) has a pid this process cannot see, so there only the
     * heartbeat tells.
     *
     * @param reader    the counters file.
     * @param nowMillis epoch milliseconds.
     * @return true when the writer is gone without closing the file.
     */
    public static boolean ended(final CountersFileReader reader, final long nowMillis)
    {
        return !reader.isWriterAlive() && (reader.writerSharesPidNamespace() || stale(reader, nowMillis));
    }

    private static boolean stale(final CountersFileReader reader, final long nowMillis)
    {
        return nowMillis - reader.heartbeatMillis() > STALLED_AFTER_MILLIS;
    }

    /**
     * @return the word of {@code dta stat --json}: running, stalled, exited or ended.
     */
    public String word()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
