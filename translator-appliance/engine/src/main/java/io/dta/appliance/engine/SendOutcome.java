package io.dta.appliance.engine;

/**
 * What a {@link FrameSink} did with a committed frame; {@link Delivery} counts it.
 */
public enum SendOutcome
{
    /**
     * The frame left, or is queued to leave: counted out, the reports it carries delivered. A sink that learns only
     * later that a queued frame did not leave after all (a DPDK tx burst that did not take it) gives it back with
     * {@link Delivery#notTaken}.
     */
    SENT,
    /**
     * The sink took the claim but the frame will not leave (a lossy link): counted as a frame the sink refused, the
     * reports it carries dropped ({@link EngineCounter#REPORTS_DROPPED_TX_FULL}).
     */
    LOST
}
