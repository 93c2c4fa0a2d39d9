package io.dta.appliance.engine;

import io.dta.codec.AethFlyweight;
import io.dta.codec.BthFlyweight;
import io.dta.codec.FrameDecoder;
import io.dta.codec.RoceOpcode;
import io.dta.config.TranslatorConfig;

/**
 * A collector's RoCEv2 response as it comes in: checked (opcode, the QP it names and the collector that sent it, the
 * appliance's address and P_Key, both checksums, the ICRC, the AETH syndrome), then handed to the QP it belongs to,
 * or to the worker that owns that QP. Every response it drops is counted under a named reason.
 */
final class ResponseDispatch
{
    private final FrameDecoder decoder;
    private final EngineCounters counters;
    private final EngineRoutes routes;
    private final WorkerHandOffs handOffs;
    private final int translatorIp;
    private final int translatorPKey;

    ResponseDispatch(
        final FrameDecoder decoder,
        final EngineCounters counters,
        final EngineRoutes routes,
        final WorkerHandOffs handOffs,
        final TranslatorConfig translator)
    {
        this.decoder = decoder;
        this.counters = counters;
        this.routes = routes;
        this.handOffs = handOffs;
        this.translatorIp = translator.ip();
        this.translatorPKey = translator.pKey();
    }

    /**
     * The response just decoded.
     */
    void onResponse(final long nowNanos)
    {
        final int opcode = decoder.roceOpcode();
        if (RoceOpcode.RC_ACKNOWLEDGE != opcode && RoceOpcode.RC_ATOMIC_ACKNOWLEDGE != opcode)
        {
            counters.increment(EngineCounter.RESPONSE_DROP_UNEXPECTED_OPCODE);
            return;
        }
        final int sourceIp = decoder.ipv4().src();
        final QueuePairSender sender = routes.sendersByLocalQpn.get(decoder.bth().destQp());
        if (null == sender && handOffs.joined() && handOffs.handedOffResponse(decoder.bth().destQp()))
        {
            return;
        }
        // One lookup on the usual path: a known QP whose collector sent the response to us. Which reason a stray
        // response is counted under (another host's, then a source we do not know) is worked out only for strays.
        if (null == sender || sender.path().collectorIp() != sourceIp || decoder.ipv4().dst() != translatorIp)
        {
            counters.increment(strayResponseReason(sender, sourceIp));
            return;
        }
        if (!BthFlyweight.pKeysMatch(decoder.bth().pKey(), translatorPKey))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_PKEY);
            return;
        }
        if (!decoder.ipChecksumValid() || !decoder.udpChecksumValid())
        {
            // The ICRC masks both checksums, so it cannot vouch for them; a receiving kernel or NIC would drop the
            // frame before the transport saw it (rocev2-reference.md §1), and so does the soft collector.
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_CHECKSUM);
            return;
        }
        if (!decoder.icrcValid(sender.responseIcrc()))
        {
            counters.increment(EngineCounter.RESPONSE_DROP_BAD_ICRC);
            return;
        }
        deliver(sender, opcode, nowNanos);
    }

    /**
     * Hands a response that passed every check to its QP, as the AETH syndrome says: an ACK, an ATOMIC ACK or a NAK.
     */
    private void deliver(final QueuePairSender sender, final int opcode, final long nowNanos)
    {
        final AethFlyweight aeth = decoder.aeth();
        final int psn = decoder.bth().psn();
        if (aeth.syndrome() >= 0x80)
        {
            // The AETH syndrome's top bit is reserved: whatever its type bits say, no responder sent this.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
        }
        else if (aeth.isAck())
        {
            if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
            {
                sender.onAtomicAck(psn, nowNanos);
            }
            else
            {
                sender.onAck(psn, nowNanos);
            }
        }
        else if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            // A responder NAKs an atomic with a plain Acknowledge; an ATOMIC ACK with a NAK syndrome is no
            // responder's frame, and must not stop or rewind the QP.
            counters.increment(EngineCounter.RESPONSE_DROP_RESERVED_SYNDROME);
        }
        else
        {
            sender.onNak(aeth.syndrome(), psn, nowNanos);
        }
    }

    private EngineCounter strayResponseReason(final QueuePairSender sender, final int sourceIp)
    {
        if (decoder.ipv4().dst() != translatorIp)
        {
            return EngineCounter.RESPONSE_DROP_OTHER_DESTINATION;
        }
        return null == sender && null != routes.collectorsByIp.get(sourceIp) ?
            EngineCounter.RESPONSE_DROP_UNKNOWN_QPN : EngineCounter.RESPONSE_DROP_UNKNOWN_SOURCE;
    }
}
