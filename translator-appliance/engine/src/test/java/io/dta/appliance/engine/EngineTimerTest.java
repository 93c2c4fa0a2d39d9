package io.dta.appliance.engine;

import io.dta.codec.DtaOpcode;
import io.dta.config.ConfigLoader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.dta.appliance.engine.TestFrames.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineTimerTest
{
    @Test
    void shouldRunTimersFromPlainPollWithAPositiveClock()
    {
        // The replay drives the engine with poll(), never pollNow(): the timers must run from the first call.
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine engine = new TranslatorEngine(ConfigLoader.load(new Cfg().yaml()), out);
        final long t0 = 1_000_000_000_000L;
        final byte[] frame = report(DtaOpcode.KEY_WRITE, keyWrite(1, 5, new byte[4]));
        engine.poll(t0);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, t0);
        assertEquals(0, out.size());
        engine.poll(t0 + TranslatorEngine.HOLD_NANOS - TranslatorEngine.TIMER_GRANULARITY_NANOS);
        assertEquals(0, out.size());
        engine.poll(t0 + TranslatorEngine.HOLD_NANOS);
        assertEquals(1, out.size(), "held frame released by the idle timer");
        assertTrue(TestFrames.parseRequest(out.frames().get(0).bytes()).ackReq());
    }

    @Test
    void shouldSkipTimersWithinTheGranularity()
    {
        final FrameCollector out = new FrameCollector();
        final TranslatorEngine engine = new TranslatorEngine(ConfigLoader.load(new Cfg().yaml()), out);
        final byte[] frame = report(DtaOpcode.KEY_WRITE, keyWrite(1, 5, new byte[4]));
        engine.poll(0);
        engine.onFrame(new UnsafeBuffer(frame), 0, frame.length, 0);
        engine.poll(TranslatorEngine.HOLD_NANOS - 500);
        assertEquals(0, engine.poll(TranslatorEngine.HOLD_NANOS), "within 1 us of the previous timer run");
        assertEquals(0, out.size());
        engine.poll(TranslatorEngine.HOLD_NANOS + 500);
        assertEquals(1, out.size());
    }
}
