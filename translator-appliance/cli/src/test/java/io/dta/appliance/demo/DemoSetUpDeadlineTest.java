package io.dta.appliance.demo;

import io.dta.codec.CmRepFlyweight;
import io.dta.codec.CmReqFlyweight;
import io.dta.codec.CmRtuFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.MadHeaderFlyweight;
import io.dta.codec.RoceOpcode;
import io.dta.collector.store.CollectorStore;
import io.dta.collector.store.NegotiatedRegions;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta demo --negotiate} set-up through a lossy link: the collector's re-sends of a REP (its RTU or the REP
 * itself lost) and of a metadata SEND (the SEND or its ACK lost) go out at the collector's own deadlines
 * ({@link io.dta.collector.responder.SoftResponder#nextDeadline()}, which the virtual clock jumps to), not when the
 * next frame or another timer happens to come. The link delays every frame by exactly 2 µs, so a frame's arrival
 * at the translator, seen through {@link ClosedLoopDemo#frameTap}, tells when the collector sent it. A frame the
 * collector sent when nothing of its connection reached it must have been sent by its timer: at the REQ's acceptance
 * plus a whole number of CM response timeouts (REP), or at the RTU's arrival plus a whole number of local ACK
 * timeouts (SEND), both taken from the configuration here.
 */
class DemoSetUpDeadlineTest
{
    private static final long LINK_NANOS = 2_000;
    private static final long CM_NANOS = 4096L << 8;
    /** Unlike the default (8, as the CM timeout), so that a SEND timer running on the CM timeout shows. */
    private static final long ACK_NANOS = 4096L << 6;
    private static final double LOSS = 0.25;

    @TempDir
    Path dir;

    private final FrameDecoder decoder = new FrameDecoder();
    private final MadHeaderFlyweight mad = new MadHeaderFlyweight();

    @Test
    void shouldResendALostRepOrMetadataSendAtTheCollectorsOwnDeadline() throws Exception
    {
        final ApplianceConfig config = ConfigLoader.load(
            ConfigDefaults.yaml().replace("localAckTimeout: 8", "localAckTimeout: 6"));
        assertEquals(ACK_NANOS, config.connection().localAckTimeoutNanos());
        assertEquals(CM_NANOS, config.connection().cmResponseTimeoutNanos());
        final ApplianceConfig collectorSide = DemoNegotiation.collectorSide(NegotiatedRegions.assign(config));
        final ApplianceConfig translatorSide = DemoNegotiation.translatorSide(collectorSide);

        long timedReps = 0;
        long timedSends = 0;
        for (long seed = 1; seed <= 12; seed++)
        {
            final String why = "seed " + seed;
            final Path storeDir = Files.createDirectories(dir.resolve("s" + seed));
            final List<CollectorStore> stores = new ArrayList<>();
            for (final CollectorConfig collector : collectorSide.collectors())
            {
                stores.add(CollectorStore.create(storeDir, collectorSide, collector));
            }
            try
            {
                final Trace trace = new Trace();
                final ClosedLoopDemo demo = new ClosedLoopDemo(translatorSide, collectorSide, stores, LOSS, seed)
                    .frameTap(trace::onFrame);
                assertTrue(demo.connect(), why + ": " + demo.connections().failures());
                for (final Seen s : trace.fromCollector)
                {
                    final long sent = s.nanos - LINK_NANOS;
                    if (trace.toCollector.contains(new Arrival(sent, s.commId)))
                    {
                        continue;   // an answer to a REQ, RTU or ACK of its connection that reached it then
                    }
                    final String what = why + ": " + (s.rep ? "REP" : "metadata SEND") + " of connection 0x" +
                        Long.toHexString(s.commId) + " arriving at " + s.nanos;
                    if (s.rep)
                    {
                        final long accepted = trace.firstReq.get(s.commId);
                        assertOnTimer(sent, accepted, CM_NANOS, what);
                        timedReps++;
                    }
                    else
                    {
                        final long established = trace.firstRtu.get(s.commId);
                        assertOnTimer(sent, established, ACK_NANOS, what);
                        timedSends++;
                    }
                }
            }
            finally
            {
                stores.forEach(CollectorStore::close);
            }
        }
        assertTrue(timedReps >= 10, "REPs re-sent by the collector's timer and delivered: " + timedReps);
        assertTrue(timedSends >= 10, "metadata SENDs re-sent by the collector's timer and delivered: " + timedSends);
    }

    private static void assertOnTimer(final long sent, final long start, final long timeout, final String what)
    {
        final long elapsed = sent - start;
        assertTrue(elapsed > 0 && 0 == elapsed % timeout, what + ": sent " + elapsed + " ns after its timer " +
            "started, not a whole number of timeouts of " + timeout + " ns");
    }

    /** An arrival at the collector of a frame of one connection (by the translator's communication ID). */
    private record Arrival(long nanos, long commId)
    {
    }

    /** A REP or metadata SEND reaching the translator. */
    private record Seen(long nanos, long commId, boolean rep)
    {
    }

    private final class Trace
    {
        final Set<Arrival> toCollector = new HashSet<>();
        final List<Seen> fromCollector = new ArrayList<>();
        final Map<Long, Long> firstReq = new HashMap<>();
        final Map<Long, Long> firstRtu = new HashMap<>();
        /** The translator's QPN of each connection, which the metadata SEND is addressed to. */
        final Map<Integer, Long> commIdByQpn = new HashMap<>();

        void onFrame(
            final boolean toCollectorSide, final DirectBuffer buffer, final int offset, final int length,
            final long nowNanos)
        {
            final byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            final UnsafeBuffer frame = new UnsafeBuffer(copy);
            if (FrameKind.ROCE != decoder.decode(frame, 0, length))
            {
                return;
            }
            final int opcode = decoder.roceOpcode();
            if (RoceOpcode.UD_SEND_ONLY == opcode)
            {
                mad.wrap(decoder.buffer(), decoder.payloadOffset());
                final int attribute = mad.attributeId();
                if (toCollectorSide && MadHeaderFlyweight.ATTRIBUTE_REQ == attribute)
                {
                    final CmReqFlyweight req = new CmReqFlyweight().wrap(frame, mad.dataOffset());
                    commIdByQpn.put(req.localQpn(), req.localCommId());
                    firstReq.putIfAbsent(req.localCommId(), nowNanos);
                    toCollector.add(new Arrival(nowNanos, req.localCommId()));
                }
                else if (toCollectorSide && MadHeaderFlyweight.ATTRIBUTE_RTU == attribute)
                {
                    final long commId = new CmRtuFlyweight().wrap(frame, mad.dataOffset()).localCommId();
                    firstRtu.putIfAbsent(commId, nowNanos);
                    toCollector.add(new Arrival(nowNanos, commId));
                }
                else if (!toCollectorSide && MadHeaderFlyweight.ATTRIBUTE_REP == attribute)
                {
                    final long commId = new CmRepFlyweight().wrap(frame, mad.dataOffset()).remoteCommId();
                    fromCollector.add(new Seen(nowNanos, commId, true));
                }
            }
            else if (!toCollectorSide && RoceOpcode.RC_SEND_ONLY == opcode)
            {
                fromCollector.add(new Seen(nowNanos, commIdByQpn.get(decoder.bth().destQp()), false));
            }
        }
    }
}
