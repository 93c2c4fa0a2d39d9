package io.dta.appliance.dpdk;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * The idle strategies a data-plane agent can run with, by name: {@code backoff} (default: spin, then yield, then
 * park from 1 µs up to 100 µs, and back to spinning as soon as a duty cycle finds work, the hybrid polling of
 * ZERO), {@code busy-spin}, {@code yield} and {@code noop}.
 */
public final class IdleStrategies
{
    /** Names accepted by {@link #parse(String)}. */
    public static final String NAMES = "backoff|busy-spin|yield|noop";

    private IdleStrategies()
    {
    }

    /**
     * @param name one of {@link #NAMES}.
     * @return a new idle strategy.
     * @throws IllegalArgumentException for an unknown name.
     */
    public static IdleStrategy parse(final String name)
    {
        return switch (name)
        {
            case "backoff" -> new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MICROSECONDS.toNanos(100));
            case "busy-spin" -> new BusySpinIdleStrategy();
            case "yield" -> new YieldingIdleStrategy();
            case "noop" -> new NoOpIdleStrategy();
            default -> throw new IllegalArgumentException("unknown idle strategy " + name + " (" + NAMES + ")");
        };
    }
}
