package io.dta.appliance.gen;

import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.DtaOpcode;
import io.dta.codec.FrameDecoder;
import io.dta.codec.FrameKind;
import io.dta.codec.Ipv4Address;
import io.dta.codec.MalformedReason;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportGeneratorTest
{
    private static final ApplianceConfig DEMO = ConfigDefaults.load();
    private static final int DEMO_COLLECTOR_IP = Ipv4Address.parse("10.0.0.51");
    private static final long DEMO_COLLECTOR_MAC = 0x02000a000033L;

    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH + 16]);

    @ParameterizedTest
    @EnumSource(value = DtaBaseHeaderForm.class, names = { "THREE", "TWO" })
    void shouldGenerateFramesThatDecodeAsDtaWithTheReportedFields(final DtaBaseHeaderForm form)
    {
        final long seed = 20_261_120L + form.ordinal();
        final GeneratorSettings settings = new GeneratorSettings().seed(seed).baseHeader(form).redundancy("1-4")
            .reporters(5);
        if (form == DtaBaseHeaderForm.THREE)
        {
            settings.essentialFraction(0.3).retransmittable(true);
        }
        // The demo configuration's reports.baseHeader is "3"; "auto" takes either form.
        final ReportGenerator generator = new ReportGenerator(GenTestConfigs.demo("auto"), settings);
        final FrameDecoder decoder = new FrameDecoder().baseHeaderForm(form).verifyUdpChecksum(true);
        final FrameDecoder autoDecoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.AUTO);
        for (int i = 0; i < 20_000; i++)
        {
            final int offset = i % 16;
            final int length = generator.next(frame, offset);
            final String where = "report " + i + ", seed " + seed + ", form " + form;
            assertEquals(FrameKind.DTA, decoder.decode(frame, offset, length),
                where + ": " + decoder.malformedReason());
            assertEquals(length, decoder.ipEnd() - offset, where);
            assertTrue(decoder.ipChecksumValid(), where);
            assertTrue(decoder.udpChecksumValid(), where);
            assertNotEquals(0, decoder.udp().checksum(), where + ": the UDP checksum must be computed, not omitted");
            assertEquals(5, decoder.ipv4().ihl(), where);
            assertEquals(64, decoder.ipv4().ttl(), where);
            assertFalse(decoder.ipv4().isFragment(), where);
            assertEquals(GeneratorSettings.REPORT_SOURCE_PORT, decoder.udp().srcPort(), where);
            assertEquals(40040, decoder.udp().dstPort(), where);
            assertEquals(DEMO_COLLECTOR_IP, decoder.ipv4().dst(), where);
            assertEquals(DEMO_COLLECTOR_MAC, decoder.ethernet().dstMac(), where);
            assertEquals(generator.reporterIp(), decoder.ipv4().src(), where);
            assertEquals(ReportGenerator.reporterMac(generator.reporterIp()), decoder.ethernet().srcMac(), where);
            final int reporterOffset = generator.reporterIp() - GeneratorSettings.FIRST_REPORTER_IP;
            assertTrue(reporterOffset >= 0 && reporterOffset < 5, where);

            assertEquals(form, decoder.dtaBaseHeaderForm(), where);
            assertEquals(generator.opcode(), decoder.dtaBase().opcode(), where);
            assertEquals(generator.essential(), decoder.dtaBase().essential(), where);
            assertEquals(form == DtaBaseHeaderForm.THREE, decoder.dtaBase().retransmittable(), where);
            assertEquals(form == DtaBaseHeaderForm.THREE ? generator.seqnum() : 0, decoder.dtaBase().seqnum(), where);
            assertFalse(decoder.dtaBase().immediate(), where);
            switch (generator.primitive())
            {
                case KEY_WRITE -> {
                    assertEquals(generator.key(), decoder.keyWrite().key(), where);
                    assertEquals(generator.redundancy(), decoder.keyWrite().redundancy(), where);
                    assertEquals(generator.data(), decoder.keyWrite().data(), where);
                    assertEquals(form.length() + 9, decoder.udpLength() - 8, where);
                }
                case KEY_INCREMENT -> {
                    assertEquals(generator.key(), decoder.keyIncrement().key(), where);
                    assertEquals(generator.redundancy(), decoder.keyIncrement().redundancy(), where);
                    assertEquals(generator.data(), decoder.keyIncrement().counter(), where);
                    assertTrue(generator.data() >= 1 && generator.data() <= 1000, where);
                }
                case APPEND -> {
                    assertEquals(generator.listId(), decoder.append().listId(), where);
                    assertTrue(generator.listId() == 0 || generator.listId() == 1, where);
                    assertEquals(generator.data(), decoder.append().data(), where);
                }
                case POSTCARD -> {
                    assertEquals(generator.key(), decoder.postcard().key(), where);
                    assertEquals(generator.hop(), decoder.postcard().hop(), where);
                    assertEquals(generator.data(), decoder.postcard().data(), where);
                }
                default -> throw new AssertionError(where);
            }
            if (generator.redundancy() >= 0)
            {
                assertTrue(generator.redundancy() >= 1 && generator.redundancy() <= 4, where);
            }

            assertEquals(FrameKind.DTA, autoDecoder.decode(frame, offset, length), where);
            assertEquals(form, autoDecoder.dtaBaseHeaderForm(), where + ": auto detection");
        }
        assertEquals(20_000, generator.reports());
    }

    @Test
    void shouldFollowTheMixProportions()
    {
        final long seed = 99;
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(seed).mix("keywrite=50,append=5,keyincrement=15,postcard=30"));
        final int n = 200_000;
        final Map<Primitive, Integer> seen = new EnumMap<>(Primitive.class);
        for (int i = 0; i < n; i++)
        {
            generator.next(frame, 0);
            seen.merge(generator.primitive(), 1, Integer::sum);
        }
        final double[] expected = { 0.50, 0.05, 0.15, 0.30, 0.0 };
        for (final Primitive primitive : Primitive.values())
        {
            final double share = seen.getOrDefault(primitive, 0) / (double)n;
            assertEquals(expected[primitive.ordinal()], share, 0.005, primitive + " share, seed " + seed);
            assertEquals(seen.getOrDefault(primitive, 0).longValue(), generator.count(primitive));
            assertEquals(expected[primitive.ordinal()], generator.mixShare(primitive), 1e-12);
        }
    }

    @Test
    void shouldEmitOnlyTheNamedPrimitives()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO, new GeneratorSettings().mix("append=1"));
        for (int i = 0; i < 1000; i++)
        {
            generator.next(frame, 0);
            assertEquals(Primitive.APPEND, generator.primitive());
        }
    }

    @Test
    void shouldDrawZipfKeysWithRankOneAboutTwoToTheSTimesRankTwo()
    {
        final long seed = 5;
        final double exponent = 1.1;
        final ReportGenerator generator = new ReportGenerator(DEMO, new GeneratorSettings().seed(seed)
            .mix("keywrite=1,keyincrement=1").keyDistribution("zipf").keySpace(100_000).zipfExponent(exponent));
        final long[] counts = new long[4];
        for (int i = 0; i < 300_000; i++)
        {
            generator.next(frame, 0);
            final long key = generator.key();
            assertTrue(key >= 0 && key < 100_000, "key " + key);
            if (key < counts.length)
            {
                counts[(int)key]++;
            }
        }
        final double expected = Math.pow(2, exponent);
        assertEquals(expected, counts[0] / (double)counts[1], expected * 0.05,
            "key0/key1 " + Arrays.toString(counts) + ", seed " + seed);
        final double expected13 = Math.pow(3.0 / 2.0, exponent);
        assertEquals(expected13, counts[1] / (double)counts[2], expected13 * 0.06,
            "key1/key2 " + Arrays.toString(counts) + ", seed " + seed);
    }

    @Test
    void shouldCycleSequentialKeysAcrossTheKeySpace()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO, new GeneratorSettings()
            .mix("keywrite=1,append=1,keyincrement=1").keyDistribution(KeyDistribution.SEQUENTIAL).keySpace(10));
        long expected = 0;
        for (int i = 0; i < 500; i++)
        {
            generator.next(frame, 0);
            if (generator.primitive() != Primitive.APPEND)
            {
                assertEquals(expected, generator.key(), "report " + i);
                expected = (expected + 1) % 10;
            }
        }
    }

    @Test
    void shouldKeepUniformKeysInsideTheKeySpaceAndCoverIt()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(8).mix("keyincrement=1").keySpace(50));
        final boolean[] seen = new boolean[50];
        for (int i = 0; i < 5000; i++)
        {
            generator.next(frame, 0);
            seen[(int)generator.key()] = true;
        }
        for (int key = 0; key < 50; key++)
        {
            assertTrue(seen[key], "key " + key + " never drawn");
        }
    }

    @Test
    void shouldIncrementSeqnumsPerReporter()
    {
        final long seed = 17;
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(seed).reporters(3).retransmittable(true));
        final FrameDecoder decoder = new FrameDecoder();
        final int[] expected = new int[3];
        final int[] counts = new int[3];
        for (int i = 0; i < 3000; i++)
        {
            final int length = generator.next(frame, 0);
            assertEquals(FrameKind.DTA, decoder.decode(frame, 0, length));
            final int reporter = decoder.ipv4().src() - GeneratorSettings.FIRST_REPORTER_IP;
            assertEquals(generator.reporterIndex(), reporter);
            assertTrue(decoder.dtaBase().retransmittable());
            assertEquals(expected[reporter], decoder.dtaBase().seqnum(), "reporter " + reporter + ", report " + i +
                ", seed " + seed);
            expected[reporter] = (expected[reporter] + 1) & 0xFF;
            counts[reporter]++;
        }
        for (int r = 0; r < 3; r++)
        {
            assertTrue(counts[r] > 300, "reporter " + r + " wrapped its seqnum: " + counts[r]);
            assertEquals(counts[r], generator.reporterCount(r));
        }
    }

    @Test
    void shouldFlagTheRequestedShareAsEssential()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(3).essentialFraction(0.25));
        int essential = 0;
        for (int i = 0; i < 40_000; i++)
        {
            generator.next(frame, 0);
            essential += generator.essential() ? 1 : 0;
        }
        assertEquals(0.25, essential / 40_000.0, 0.01);
        assertEquals(essential, generator.essentialCount());
    }

    @Test
    void shouldSendEveryPostcardFlowInHopOrderToOneCollector()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(11).mix("postcard=1,append=1").reporters(7));
        assertEquals(5, generator.hops());
        int expectedHop = 1;
        long flowKey = -1;
        int flowReporter = -1;
        for (int i = 0; i < 10_000; i++)
        {
            generator.next(frame, 0);
            if (generator.primitive() != Primitive.POSTCARD)
            {
                continue;
            }
            assertEquals(expectedHop, generator.hop(), "report " + i);
            if (expectedHop == 1)
            {
                flowKey = generator.key();
                flowReporter = generator.reporterIndex();
            }
            else
            {
                assertEquals(flowKey, generator.key(), "report " + i);
                // Hop h of a flow comes from the h-th switch along its path.
                assertEquals((flowReporter + expectedHop - 1) % 7, generator.reporterIndex(), "report " + i);
            }
            expectedHop = expectedHop == 5 ? 1 : expectedHop + 1;
        }
        assertEquals(0, generator.postcardHopsSkipped());
    }

    @Test
    void shouldLeaveOutTheRequestedShareOfPostcardHops()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().seed(12).mix("postcard=1").hops(4).postcardLoss(0.2));
        int lastHop = 0;
        long lastKey = -1;
        for (int i = 0; i < 50_000; i++)
        {
            generator.next(frame, 0);
            assertTrue(generator.hop() >= 1 && generator.hop() <= 4);
            if (generator.hop() > lastHop && generator.key() == lastKey)
            {
                lastHop = generator.hop();
            }
            else
            {
                // A new flow: its first sent hop, whatever was lost before it.
                lastKey = generator.key();
                lastHop = generator.hop();
            }
        }
        final double skipped = generator.postcardHopsSkipped();
        final double loss = skipped / (skipped + 50_000);
        assertEquals(0.2, loss, 0.01);
        assertEquals(50_000, generator.count(Primitive.POSTCARD));
    }

    @Test
    void shouldProduceEveryDocumentedKindOfBadReport()
    {
        final long seed = 23;
        final ReportGenerator generator =
            new ReportGenerator(DEMO, new GeneratorSettings().seed(seed).badFraction(0.4));
        final FrameDecoder decoder = new FrameDecoder();
        final FrameDecoder autoDecoder = new FrameDecoder().baseHeaderForm(DtaBaseHeaderForm.AUTO);
        final Map<BadKind, Integer> seen = new EnumMap<>(BadKind.class);
        int bad = 0;
        final int n = 20_000;
        for (int i = 0; i < n; i++)
        {
            final int length = generator.next(frame, 0);
            final FrameKind kind = decoder.decode(frame, 0, length);
            final String where = "report " + i + ", seed " + seed + ", " + generator.badKind();
            assertTrue(decoder.ipChecksumValid(), where);
            assertTrue(decoder.udpChecksumValid(), where);
            final BadKind badKind = generator.badKind();
            if (null == badKind)
            {
                assertEquals(FrameKind.DTA, kind, where);
                continue;
            }
            bad++;
            seen.merge(badKind, 1, Integer::sum);
            switch (badKind)
            {
                case UNKNOWN_OPCODE -> {
                    assertEquals(FrameKind.MALFORMED, kind, where);
                    assertEquals(MalformedReason.UNKNOWN_DTA_OPCODE, decoder.malformedReason(), where);
                    assertFalse(DtaOpcode.isKnown(decoder.dtaOpcode()), where);
                    assertNull(generator.primitive(), where);
                }
                case REDUNDANCY_ZERO, REDUNDANCY_ABOVE_MAX -> {
                    assertEquals(FrameKind.DTA, kind, where);
                    final int redundancy = decoder.dtaOpcode() == DtaOpcode.KEY_WRITE ?
                        decoder.keyWrite().redundancy() : decoder.keyIncrement().redundancy();
                    if (badKind == BadKind.REDUNDANCY_ZERO)
                    {
                        assertEquals(0, redundancy, where);
                    }
                    else
                    {
                        assertTrue(redundancy > DEMO.redundancy().max() && redundancy <= 255, where);
                    }
                    assertEquals(generator.redundancy(), redundancy, where);
                }
                case TRUNCATED -> {
                    assertEquals(FrameKind.MALFORMED, kind, where);
                    assertEquals(MalformedReason.TRUNCATED_DTA, decoder.malformedReason(), where);
                    assertEquals(FrameKind.MALFORMED, autoDecoder.decode(frame, 0, length), where);
                    assertEquals(MalformedReason.TRUNCATED_DTA, autoDecoder.malformedReason(), where);
                    assertNotNull(generator.primitive(), where);
                }
                case UNKNOWN_LIST_ID -> {
                    assertEquals(FrameKind.DTA, kind, where);
                    assertEquals(DtaOpcode.APPEND, decoder.dtaOpcode(), where);
                    final long listId = decoder.append().listId();
                    assertTrue(listId != 0 && listId != 1, where);
                    assertEquals(generator.listId(), listId, where);
                }
                default -> throw new AssertionError(where);
            }
        }
        assertEquals(0.4, bad / (double)n, 0.015);
        assertEquals(bad, generator.badTotal());
        for (final BadKind kind : BadKind.values())
        {
            final int count = seen.getOrDefault(kind, 0);
            assertEquals(bad / 5.0, count, bad * 0.03, kind + ": " + seen);
            assertEquals(count, generator.badCount(kind));
        }
    }

    @Test
    void shouldGiveIdenticalFramesForTheSameSeedAndDifferentOnesForAnother()
    {
        final UnsafeBuffer other = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final ReportGenerator a = new ReportGenerator(DEMO, zipfSettings(77));
        final ReportGenerator b = new ReportGenerator(DEMO, zipfSettings(77));
        final ReportGenerator c = new ReportGenerator(DEMO, zipfSettings(78));
        int differences = 0;
        for (int i = 0; i < 5000; i++)
        {
            final int la = a.next(frame, 0);
            final int lb = b.next(other, 0);
            assertEquals(la, lb);
            assertArrayEquals(
                Arrays.copyOf(frame.byteArray(), la), Arrays.copyOf(other.byteArray(), lb), "report " + i);
            final int lc = c.next(other, 0);
            if (lc != la || !Arrays.equals(Arrays.copyOf(frame.byteArray(), la), Arrays.copyOf(other.byteArray(), lc)))
            {
                differences++;
            }
        }
        assertTrue(differences > 4900, "another seed should change almost every frame: " + differences);
    }

    @Test
    void shouldUseTheConfigurationsPortSlotSizeListsAndCollectors()
    {
        final ApplianceConfig config = GenTestConfigs.twoCollectors();
        final long seed = 31;
        final ReportGenerator generator = new ReportGenerator(config, new GeneratorSettings().seed(seed));
        assertEquals(DtaBaseHeaderForm.TWO, generator.form(), "the configuration's base header");
        assertEquals(java.util.List.of(Primitive.POSTCARD), generator.omittedPrimitives());
        final FrameDecoder decoder = new FrameDecoder().dtaPort(40050).baseHeaderForm(DtaBaseHeaderForm.TWO)
            .keyWriteDataLength(12);
        final int a = Ipv4Address.parse("10.0.0.51");
        final int b = Ipv4Address.parse("10.0.0.52");
        for (int i = 0; i < 5000; i++)
        {
            final int length = generator.next(frame, 0);
            final String where = "report " + i + ", seed " + seed;
            assertEquals(FrameKind.DTA, decoder.decode(frame, 0, length), where);
            assertEquals(generator.collectorIp(), decoder.ipv4().dst(), where);
            switch (generator.primitive())
            {
                case KEY_WRITE -> {
                    assertEquals(a, decoder.ipv4().dst(), where);
                    assertEquals(0x02000a000033L, decoder.ethernet().dstMac(), where);
                    assertEquals(2 + 5 + 12, decoder.udpLength() - 8, where + ": 16-byte slots carry 12 data bytes");
                    assertEquals(2, decoder.keyWrite().redundancy(), where);
                }
                case KEY_INCREMENT -> assertEquals(b, decoder.ipv4().dst(), where);
                case APPEND -> assertEquals(decoder.append().listId() == 7 ? a : b, decoder.ipv4().dst(), where);
                default -> throw new AssertionError(where + ": " + generator.primitive());
            }
        }
    }

    @Test
    void shouldGiveReportersAndSketchSwitchesDisjointAddressesAtTheMaximumCounts()
    {
        // Reporter 257 was 10.0.2.1 (MAC 02:00:0a:00:02:01), sketch switch 0's address, each with its own seqnum:
        // the translator's sequence tracking saw one reporter jump back and forth and dropped valid reports.
        final long seed = 257;
        final ReportGenerator generator = new ReportGenerator(DEMO, new GeneratorSettings().seed(seed)
            .reporters(GeneratorSettings.MAX_REPORTERS).mix("keywrite=1,sketch=1").switches(256).epochs(1)
            .sketchItems(16).retransmittable(true));
        final Map<Integer, String> roleByIp = new HashMap<>();
        final Map<Long, String> roleByMac = new HashMap<>();
        for (int i = 0; i < GeneratorSettings.MAX_REPORTERS; i++)
        {
            final int ip = generator.reporterIp(i);
            assertNull(roleByIp.put(ip, "reporter " + i), "reporter " + i + " reuses " + Ipv4Address.format(ip));
            assertNull(roleByMac.put(ReportGenerator.reporterMac(ip), "reporter " + i), "reporter " + i);
        }
        for (int s = 0; s < 256; s++)
        {
            final int ip = generator.switchIp(s);
            final String previous = roleByIp.put(ip, "switch " + s);
            assertNull(previous, "switch " + s + " reuses " + Ipv4Address.format(ip) + " of " + previous);
            assertNull(roleByMac.put(ReportGenerator.reporterMac(ip), "switch " + s), "switch " + s);
        }
        // The common small counts keep their addresses, which docs and captures name.
        assertEquals(Ipv4Address.parse("10.0.1.1"), generator.reporterIp(0));
        assertEquals(Ipv4Address.parse("10.0.2.0"), generator.reporterIp(255));
        assertEquals(Ipv4Address.parse("10.0.2.1"), generator.switchIp(0));
        assertEquals(Ipv4Address.parse("10.0.3.0"), generator.switchIp(255));

        // The frames themselves: every source address and MAC belongs to one role only.
        final Map<Integer, Boolean> switchSource = new HashMap<>();
        final Map<Long, Boolean> switchSourceMac = new HashMap<>();
        final FrameDecoder decoder = new FrameDecoder();
        long switchFrames = 0;
        for (int i = 0; i < 300_000; i++)
        {
            final int length = generator.next(frame, 0);
            final String where = "report " + i + ", seed " + seed;
            assertEquals(FrameKind.DTA, decoder.decode(frame, 0, length), where);
            final boolean fromSwitch = generator.switchId() >= 0;
            switchFrames += fromSwitch ? 1 : 0;
            final int ip = decoder.ipv4().src();
            assertEquals(fromSwitch ? generator.switchIp(generator.switchId()) :
                generator.reporterIp(generator.reporterIndex()), ip, where);
            final Boolean ipRole = switchSource.putIfAbsent(ip, fromSwitch);
            assertTrue(null == ipRole || ipRole == fromSwitch, where + ": " + Ipv4Address.format(ip) +
                " sends as a reporter and as a sketch switch");
            final Boolean macRole = switchSourceMac.putIfAbsent(decoder.ethernet().srcMac(), fromSwitch);
            assertTrue(null == macRole || macRole == fromSwitch, where + ": MAC of " + Ipv4Address.format(ip) +
                " sends as a reporter and as a sketch switch");
        }
        assertTrue(switchFrames > 100_000 && switchFrames < 200_000, "seed " + seed + ": " + switchFrames);
        assertEquals(256 + GeneratorSettings.MAX_REPORTERS, roleByIp.size());
        assertTrue(switchSource.size() > 256 + 50_000, "sources seen: " + switchSource.size());
    }

    @Test
    void shouldRefuseSettingsThatDoNotFitTheConfiguration()
    {
        assertOption("--retransmittable", () -> new ReportGenerator(DEMO,
            new GeneratorSettings().baseHeader("2").retransmittable(true)));
        assertOption("--essential", () -> new ReportGenerator(DEMO,
            new GeneratorSettings().baseHeader("2").essentialFraction(0.1)));
        assertOption("--retransmittable", () -> new ReportGenerator(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().retransmittable(true)));
        assertOption("--redundancy", () -> new ReportGenerator(DEMO, new GeneratorSettings().redundancy("2-5")));
        assertOption("--hops", () -> new ReportGenerator(DEMO, new GeneratorSettings().hops(6)));
        assertOption("--base-header", () -> new ReportGenerator(DEMO, new GeneratorSettings().baseHeader("2")));
        assertOption("--base-header", () -> new ReportGenerator(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().baseHeader("3")));
        assertOption("--collector",
            () -> new ReportGenerator(DEMO, new GeneratorSettings().collectorIps("10.9.9.9")));
        assertOption("--lists", () -> new ReportGenerator(DEMO, new GeneratorSettings().listIds("0,4")));
        assertOption("--lists", () -> new ReportGenerator(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().collectorIps("10.0.0.51").listIds("9")));
        assertOption("--mix", () -> new ReportGenerator(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().mix("postcard=1,keywrite=1")));
        assertOption("--mix", () -> new GeneratorSettings().mix("keywrite=1,sketchy=2"));
        assertOption("--mix", () -> new ReportGenerator(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().mix("sketch=1")));
        assertOption("--sketches", () -> new ReportGenerator(DEMO, new GeneratorSettings().mix("sketch=1")
            .sketchIds(4)));
        assertOption("--mix", () -> new GeneratorSettings().mix("keywrite=0"));
        assertOption("--mix", () -> new GeneratorSettings().mix("keywrite=-1"));
        assertOption("--keys", () -> new GeneratorSettings().keyDistribution("pareto"));
        assertOption("--key-space", () -> new GeneratorSettings().keySpace(0));
        assertOption("--key-space", () -> new GeneratorSettings().keySpace((1L << 32) + 1));
        assertOption("--zipf-exponent", () -> new GeneratorSettings().zipfExponent(0));
        assertOption("--redundancy", () -> new GeneratorSettings().redundancy("0"));
        assertOption("--redundancy", () -> new GeneratorSettings().redundancy("3-2"));
        assertOption("--redundancy", () -> new GeneratorSettings().redundancy("x"));
        assertOption("--base-header", () -> new GeneratorSettings().baseHeader("auto"));
        assertOption("--essential", () -> new GeneratorSettings().essentialFraction(1.5));
        assertOption("--postcard-loss", () -> new GeneratorSettings().postcardLoss(1.0));
        assertOption("--bad", () -> new GeneratorSettings().badFraction(-0.1));
        assertOption("--reporters", () -> new GeneratorSettings().reporters(0));
        assertOption("--hops", () -> new GeneratorSettings().hops(256));
        assertOption("--spacing-nanos", () -> new GeneratorSettings().spacingNanos(-1));
        assertOption("--start-time", () -> new GeneratorSettings().startTimeSeconds(1L << 32));
    }

    @Test
    void shouldRefuseHopsAndABaseHeaderTheConfiguredTranslatorWouldDrop()
    {
        // postcards.hops is 5 in the demo configuration: hop 6 and later are dropped as bad hops.
        final GeneratorSettingsException hops = assertThrows(GeneratorSettingsException.class,
            () -> new ReportGenerator(DEMO, new GeneratorSettings().mix("postcard=1").hops(8)));
        assertEquals("--hops: 8 hops per flow exceed postcards.hops 5 of the configuration", hops.getMessage());
        assertEquals(5, new ReportGenerator(DEMO, new GeneratorSettings().mix("postcard=1").hops(5)).hops());
        assertEquals(1, new ReportGenerator(DEMO, new GeneratorSettings().mix("postcard=1").hops(1)).hops());

        final GeneratorSettingsException two = assertThrows(GeneratorSettingsException.class,
            () -> new ReportGenerator(DEMO, new GeneratorSettings().baseHeader("2")));
        assertEquals("--base-header: form 2 does not match reports.baseHeader \"3\" of the configuration (the " +
            "translator would not translate these reports; \"auto\" takes either form)", two.getMessage());
        final GeneratorSettingsException three = assertThrows(GeneratorSettingsException.class,
            () -> new ReportGenerator(GenTestConfigs.twoCollectors(), new GeneratorSettings().baseHeader("3")));
        assertTrue(three.getMessage().startsWith("--base-header: form 3 does not match reports.baseHeader \"2\""),
            three.getMessage());
        // The matching form, and either form under "auto".
        assertEquals(DtaBaseHeaderForm.THREE,
            new ReportGenerator(DEMO, new GeneratorSettings().baseHeader("3")).form());
        assertEquals(DtaBaseHeaderForm.TWO,
            new ReportGenerator(GenTestConfigs.twoCollectors(), new GeneratorSettings().baseHeader("2")).form());
        assertEquals(DtaBaseHeaderForm.TWO,
            new ReportGenerator(GenTestConfigs.demo("auto"), new GeneratorSettings().baseHeader("2")).form());
        assertEquals(DtaBaseHeaderForm.THREE,
            new ReportGenerator(GenTestConfigs.demo("auto"), new GeneratorSettings().baseHeader("3")).form());
        assertEquals(DtaBaseHeaderForm.TWO, new ReportGenerator(GenTestConfigs.demo("2"), new GeneratorSettings())
            .form());
    }

    @Test
    void shouldRestrictReportsToTheSelectedCollector()
    {
        final ApplianceConfig config = GenTestConfigs.twoCollectors();
        final ReportGenerator generator = new ReportGenerator(config,
            new GeneratorSettings().collectorIps("10.0.0.52").badFraction(0.2));
        assertEquals(java.util.List.of(Primitive.KEY_WRITE, Primitive.POSTCARD), generator.omittedPrimitives());
        for (int i = 0; i < 2000; i++)
        {
            generator.next(frame, 0);
            assertEquals(Ipv4Address.parse("10.0.0.52"), generator.collectorIp());
        }
    }

    @Test
    void shouldDrawRedundancyFromTheWholeRange()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().mix("keywrite=1,keyincrement=1").redundancy("2-4"));
        final int[] counts = new int[5];
        for (int i = 0; i < 3000; i++)
        {
            generator.next(frame, 0);
            counts[generator.redundancy()]++;
        }
        assertEquals(0, counts[0] + counts[1]);
        for (int n = 2; n <= 4; n++)
        {
            assertTrue(counts[n] > 800, "N=" + n + ": " + Arrays.toString(counts));
        }
    }

    @Test
    void shouldStampReportsAtTheConfiguredSpacing()
    {
        final ReportGenerator generator = new ReportGenerator(DEMO,
            new GeneratorSettings().startTimeSeconds(1000).spacingNanos(250));
        for (int i = 0; i < 10; i++)
        {
            generator.next(frame, 0);
            assertEquals(i, generator.index());
            assertEquals(1000_000_000_000L + 250L * i, generator.timestampNanos());
        }
    }

    @Test
    void shouldNotAllocatePerReport()
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final ReportGenerator generator = new ReportGenerator(DEMO, new GeneratorSettings().keyDistribution("zipf")
            .badFraction(0.1).essentialFraction(0.5).retransmittable(true).redundancy("1-4").postcardLoss(0.1));
        for (int i = 0; i < 200_000; i++)
        {
            generator.next(frame, 0);
        }
        final long threadId = Thread.currentThread().threadId();
        final long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < 200_000; i++)
        {
            generator.next(frame, 0);
        }
        final long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        assertTrue(allocated < 100_000, "allocated " + allocated + " bytes for 200000 reports");
    }

    private static GeneratorSettings zipfSettings(final long seed)
    {
        return new GeneratorSettings().seed(seed).keyDistribution("zipf").redundancy("1-4").reporters(6)
            .essentialFraction(0.2).retransmittable(true).badFraction(0.05).postcardLoss(0.1);
    }

    private static void assertOption(final String option, final Runnable action)
    {
        final GeneratorSettingsException ex = assertThrows(GeneratorSettingsException.class, action::run);
        assertEquals(option, ex.option(), ex.getMessage());
        assertTrue(ex.getMessage().startsWith(option + ": "), ex.getMessage());
    }
}
