package io.dta.appliance.replay;

import io.dta.appliance.engine.TranslatorEngine;
import io.dta.appliance.engine.worker.EngineGroup;
import io.dta.appliance.io.FrameSource;
import io.dta.appliance.io.PcapFrameSink;
import io.dta.codec.pcap.PcapReader;
import io.dta.config.ApplianceConfig;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Offline translation of a capture: every report in capture order, with the capture timestamps as the engine
 * clock, and the collector's responses (ACK, NAK, ATOMIC ACK) from a second capture merged in by timestamp
 * (a response and a report with the same timestamp: the response first). Each capture has one role: RoCEv2 frames
 * in the reports capture and reports in the responses capture are counted and skipped
 * ({@link TranslatorEngine#onReportsCaptureFrame}, {@link TranslatorEngine#onResponsesCaptureFrame}). The timers
 * due between two frames run at their own deadlines before the next frame ({@link TranslatorEngine#advanceTo(long)}),
 * as in a live engine polled continuously. When the reports end before the responses, everything pending is flushed
 * then, as an open-loop replay flushes at its end. At end of input the partial batches, cached postcards and held
 * frames are flushed, and a QP still in a timed grace period ends it and sends the
 * essential operations it kept ({@link TranslatorEngine#finish(long)}). Without a responses capture the run is open
 * loop: no ACK can come, so ACK timeouts and probes are off.
 * <p>
 * Both captures may be of any link type {@link PcapReader} reads (Ethernet, Linux cooked SLL/SLL2, raw IP/IPv4,
 * per pcapng interface); a non-Ethernet packet is translated as the Ethernet frame the reader presents it as, with
 * the appliance's own MAC ({@code translator.mac}) as its destination.
 * <p>
 * A capture cut short inside its last record (copied while tcpdump was still writing it) is read to its last whole
 * record, as tshark reads it ({@link PcapReader#cutShort()}): the run ends there normally, with the same output as
 * the capture without the incomplete record, and reports the cut ({@link CutShortCapture}).
 */
public final class Replay
{
    private Replay()
    {
    }

    /**
     * Runs one replay.
     *
     * @param config    validated configuration.
     * @param reports   capture of reports (and anything else; other frames are counted and skipped).
     * @param responses optional capture of collector responses, or null.
     * @param output    capture to write the RoCEv2 frames to.
     * @return the engine after the run, for its counters and QP states.
     * @throws IOException if a capture cannot be read or written.
     */
    public static TranslatorEngine run(
        final ApplianceConfig config, final Path reports, final Path responses, final Path output) throws IOException
    {
        return run(config, reports, responses, output, new ArrayList<>());
    }

    /**
     * Runs one replay, telling which inputs were cut short.
     *
     * @param config    validated configuration.
     * @param reports   capture of reports (and anything else; other frames are counted and skipped).
     * @param responses optional capture of collector responses, or null.
     * @param output    capture to write the RoCEv2 frames to.
     * @param cutShort  receives the inputs that end inside a record, reports first (nothing when none is).
     * @return the engine after the run, for its counters and QP states.
     * @throws IOException if a capture cannot be read or written.
     */
    public static TranslatorEngine run(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<CutShortCapture> cutShort) throws IOException
    {
        return runWorkers(config, reports, responses, output, cutShort, reader -> null).engines()[0];
    }

    /**
     * Runs one replay with the configuration's {@code workers.count} workers ({@link EngineGroup}: each frame to the
     * worker RSS would give it, in turn on this thread, so the output is the same at every run), telling which inputs
     * were cut short and showing each report frame read to an observer (a progress display).
     *
     * @param config    validated configuration (static regions with a QP for every worker).
     * @param reports   capture of reports (and anything else; other frames are counted and skipped).
     * @param responses optional capture of collector responses, or null.
     * @param output    capture to write the RoCEv2 frames to.
     * @param cutShort  receives the inputs that end inside a record, reports first (nothing when none is).
     * @param observer  gives the observer of the reports capture once it is open, or null for none.
     * @return the workers after the run, for their counters and QP states.
     * @throws IOException if a capture cannot be read or written.
     */
    public static EngineGroup runWorkers(
        final ApplianceConfig config,
        final Path reports,
        final Path responses,
        final Path output,
        final List<CutShortCapture> cutShort,
        final Function<PcapReader, FrameSource.FrameObserver> observer) throws IOException
    {
        final int workers = config.workers().count();
        // The inputs are opened first: a file that is no capture fails before the output is created (truncated), so an
        // earlier output of that name stays as it was.
        try (PcapReader in = PcapReader.open(reports).destinationMac(config.translator().mac());
            PcapReader back = null == responses ? null :
                PcapReader.open(responses).destinationMac(config.translator().mac());
            PcapFrameSink sink = PcapFrameSink.open(output))
        {
            final EngineGroup engine = new EngineGroup(EngineGroup.workerConfigs(config, workers), sink,
                null != responses, config.workers().handOffQueueBytes());
            final FrameSource.FrameObserver seen = observer.apply(in);
            CaptureMerge.run(engine, null == seen ? FrameSource.of(in) : FrameSource.of(in, seen),
                null == back ? null : FrameSource.of(back));
            CutShortCapture.addIfCut(cutShort, CutShortCapture.IN, reports, in);
            if (null != back)
            {
                CutShortCapture.addIfCut(cutShort, CutShortCapture.RESPONSES, responses, back);
            }
            return engine;
        }
    }
}
