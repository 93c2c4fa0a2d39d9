/**
 * Synthetic DTA report generation for tests, demos and benchmarks: {@link io.dta.appliance.gen.ReportGenerator}
 * builds report frames in memory, {@code dta gen} streams them to a pcap file.
 */
package io.dta.appliance.gen;
