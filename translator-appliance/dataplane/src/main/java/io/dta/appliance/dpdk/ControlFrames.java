package io.dta.appliance.dpdk;

import org.agrona.DirectBuffer;

/**
 * Where a worker's frames that are not the engine's go: ARP and connection set-up happen in one place (worker 0 of
 * {@code dta run}), so the other workers hand them over.
 */
@FunctionalInterface
public interface ControlFrames
{
    /**
     * @param role   the role of the port the frame came in on (its index in the run's port roles).
     * @param frame  the frame's buffer.
     * @param offset frame start.
     * @param length frame length.
     * @return false when the frame could not be taken (it is dropped and counted).
     */
    boolean offer(int role, DirectBuffer frame, int offset, int length);
}
