package io.dta.appliance.engine;

/**
 * What a frame the engine gives its {@link FrameSink} is, for {@link Delivery} to count it (and for a sink that
 * sends frames of different kinds different ways).
 */
public enum OutFrameKind
{
    /**
     * A queue pair's RoCEv2 request (a WRITE, a FETCH_ADD, a probe): {@link EngineCounter#ROCE_FRAMES_OUT}; the
     * reports it carries count delivered when it leaves.
     */
    REQUEST,
    /** A NACK to a reporter ({@link EngineCounter#REPORTER_NACKS_OUT}): no reports, not a RoCEv2 frame. */
    REPORTER_NACK,
    /** A NACK to a switch for a sketch column gap ({@link EngineCounter#SKETCH_NACKS_OUT}). */
    SKETCH_NACK,
    /** A connection manager's frame (IB CM, its ACKs): counted by its sender, not by {@link Delivery}. */
    CONTROL
}
