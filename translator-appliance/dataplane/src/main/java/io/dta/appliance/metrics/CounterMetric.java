package io.dta.appliance.metrics;

import io.prometheus.metrics.model.snapshots.Labels;

/**
 * What one counter of a counters file is called in Prometheus: a metric family name (without the {@code _total} the
 * exposition adds), its help text and the labels that tell this counter from the others of the family.
 *
 * @param name   family name, {@code dta_} first, the unit in it ({@code dta_roce_frames_out}).
 * @param help   what it counts.
 * @param labels labels of this counter within the family (drop reason, port, worker).
 */
public record CounterMetric(String name, String help, Labels labels)
{
}
