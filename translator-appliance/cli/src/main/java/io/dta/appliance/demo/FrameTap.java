package io.dta.appliance.demo;

import org.agrona.DirectBuffer;

/**
 * Sees every frame a link of {@link ClosedLoopDemo} delivers, before its receiver does (tests observe the traffic
 * with it).
 */
@FunctionalInterface
public interface FrameTap
{
    /**
     * @param toCollector true for a frame reaching the collector, false for one reaching the translator.
     * @param buffer      frame memory (valid during the call only).
     * @param offset      frame start.
     * @param length      frame length.
     * @param nowNanos    virtual time of arrival.
     */
    void onFrame(boolean toCollector, DirectBuffer buffer, int offset, int length, long nowNanos);
}
