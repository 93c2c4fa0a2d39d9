package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;

/**
 * What a bench result says of its measured phase beyond the rates: the engine's counters' growth and the frames fed,
 * for the engine alone ({@link EngineBench.Result}) and through DPDK alike.
 */
public interface MeasuredPhase
{
    /**
     * @return how much each engine counter grew in the measured phase, by {@link EngineCounter#ordinal()}.
     */
    long[] counters();

    /**
     * @return frames of the input fed in the measured phase (reports and anything else).
     */
    long framesIn();

    /**
     * @return the measured phase's wall time.
     */
    double seconds();

    /**
     * @param counter an engine counter.
     * @return how much it grew in the measured phase.
     */
    default long delta(final EngineCounter counter)
    {
        return counters()[counter.ordinal()];
    }

    /**
     * @return frames of the input fed per second.
     */
    default double framesInPerSecond()
    {
        return framesIn() / seconds();
    }
}
