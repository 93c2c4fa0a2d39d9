package io.dta.appliance.engine;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MixedSlotSizeTest
{
    private static final String YAML = """
        translator: {mac: "02:00:0a:00:00:65", ip: 10.0.0.101}
        collectors:
          - name: a
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite: {localQpn: 0x539, qpn: 0x456, rkey: 1, address: 0x7f0000000000, length: 2048, slotSize: 8,
                       startPsn: 0x100}
          - name: b
            mac: "02:00:0a:00:00:34"
            ip: 10.0.0.52
            keyWrite: {localQpn: 0x540, qpn: 0x460, rkey: 2, address: 0x7f0000000000, length: 4096, slotSize: 16,
                       startPsn: 0x200}
        """;

    @Test
    void shouldServeCollectorsWithDifferentSlotSizes()
    {
        final ApplianceConfig config = ConfigLoader.load(YAML);
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine engine = new TranslatorEngine(config, out, false);
        final byte[] fourBytes = { 1, 2, 3, 4 };
        final byte[] twelveBytes = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
        feed(engine, TestFrames.report(TestFrames.REPORTER_1, TestFrames.COLLECTOR_A, 3, 1, 0, 0,
            TestFrames.keyWrite(1, 7, fourBytes)), 1);
        feed(engine, TestFrames.report(TestFrames.REPORTER_1, TestFrames.COLLECTOR_B, 3, 1, 0, 0,
            TestFrames.keyWrite(1, 7, twelveBytes)), 2);
        feed(engine, TestFrames.report(TestFrames.REPORTER_1, TestFrames.COLLECTOR_B, 3, 1, 0, 0,
            TestFrames.keyWrite(1, 8, fourBytes)), 3);
        feed(engine, TestFrames.report(TestFrames.REPORTER_1, TestFrames.COLLECTOR_A, 3, 1, 0, 0,
            TestFrames.keyWrite(1, 8, twelveBytes)), 4);
        engine.flush(5);
        final List<TestFrames.Request> requests = out.drainRequests();
        assertEquals(2, requests.size());
        assertEquals(8, requests.get(0).payload().length);
        assertEquals(16, requests.get(1).payload().length);
        assertEquals(1, engine.counters().get(EngineCounter.DROP_TRUNCATED), "short data for the 16-byte store");
        assertEquals(1, engine.counters().get(EngineCounter.DROP_BAD_LENGTH), "long data for the 8-byte store");
    }

    private static void feed(final TranslatorEngine engine, final byte[] frame, final long now)
    {
        engine.onFrame(new org.agrona.concurrent.UnsafeBuffer(frame), 0, frame.length, now);
    }
}
