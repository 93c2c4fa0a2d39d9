package io.dta.collector.responder;

import java.nio.ByteBuffer;

import io.dta.codec.AethFlyweight;
import io.dta.codec.RoceFrameEncoder;
import io.dta.codec.RoceOpcode;
import io.dta.codec.UdpFlyweight;
import io.dta.config.TranslatorConfig;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Builds and emits the responder's RC responses (ACK, NAK, RNR NAK, ATOMIC ACK) of one QP, counting each by kind:
 * from the collector's MAC and IP to the translator's, UDP source port {@link SoftResponder#RESPONSE_SOURCE_PORT} to
 * 4791, DestQP the translator's QPN, MigReq set, P_Key, DSCP, ECN and TTL as the translator uses, IPv4
 * identification 0, and a correct ICRC. One reusable frame buffer; allocates nothing per response.
 */
final class AckSender
{
    private static final int MAX_FRAME = 256;

    private final SoftResponder responder;
    private final RoceFrameEncoder encoder = new RoceFrameEncoder();
    private final UnsafeBuffer response = new UnsafeBuffer(ByteBuffer.allocateDirect(MAX_FRAME));

    /**
     * @param responder  whose counters count the responses.
     * @param translator the translator the responses go to.
     */
    AckSender(final SoftResponder responder, final TranslatorConfig translator)
    {
        this.responder = responder;
        encoder
            .dstMac(translator.mac())
            .dstIp(translator.ip())
            .srcPort(SoftResponder.RESPONSE_SOURCE_PORT)
            .dstPort(UdpFlyweight.ROCEV2_PORT)
            .tos((translator.dscp() << 2) | translator.ecn())
            .ttl(translator.ttl())
            .identification(0)
            .dontFragment(true)
            .migReq(true)
            .pKey(translator.pKey())
            .ackReq(false)
            .noPayload();
    }

    /**
     * Emit one response of a QP.
     *
     * @param qp       the responding QP.
     * @param opcode   {@link RoceOpcode#RC_ACKNOWLEDGE} or {@link RoceOpcode#RC_ATOMIC_ACKNOWLEDGE}.
     * @param psn      PSN of the response.
     * @param syndrome AETH syndrome (ACK with credits, NAK or RNR NAK).
     * @param msn      AETH MSN.
     * @param original original value of an ATOMIC ACK (ignored otherwise).
     * @param out      where the response goes.
     */
    void send(
        final ResponderQp qp,
        final int opcode,
        final int psn,
        final int syndrome,
        final int msn,
        final long original,
        final ResponseSink out)
    {
        encoder
            .srcMac(qp.collector.mac())
            .srcIp(qp.collector.ip())
            .destQp(qp.peerQpn)
            .opcode(opcode)
            .psn(psn)
            .syndrome(syndrome)
            .msn(msn)
            .originalValue(original);
        final int length = encoder.encode(response, 0);
        if (RoceOpcode.RC_ATOMIC_ACKNOWLEDGE == opcode)
        {
            responder.count(ResponderCounter.ATOMIC_ACKS_SENT);
        }
        else if (AethFlyweight.TYPE_ACK != AethFlyweight.type(syndrome))
        {
            responder.count(ResponderCounter.NAKS_SENT);
        }
        else
        {
            responder.count(ResponderCounter.ACKS_SENT);
        }
        out.onResponse(response, 0, length);
    }
}
