package io.dta.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.util.Locale;

/**
 * A validated configuration written back in the schema it was read in, every default filled in: what the
 * appliance will run with. The document loads again through {@link ConfigLoader} to an equal configuration.
 * Identifiers (MAC, IPv4) are written as text, QP numbers, R_Keys, addresses, PSNs and the P_Key as quoted 0x-hex
 * (the loader reads both), everything else as decimal numbers.
 */
public final class EffectiveConfig
{
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private EffectiveConfig()
    {
    }

    /**
     * @param config a validated configuration.
     * @param format the syntax to write.
     * @return the document, ending with a line break.
     */
    public static String write(final ApplianceConfig config, final ConfigFormat format)
    {
        final ObjectMapper mapper = ConfigFormat.JSON == format ?
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT) :
            new ObjectMapper(YAMLFactory.builder()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                .build());
        try
        {
            final String text = mapper.writeValueAsString(tree(config));
            return text.endsWith("\n") ? text : text + System.lineSeparator();
        }
        catch (final JsonProcessingException ex)
        {
            throw new IllegalStateException("a configuration tree could not be written: " + ex.getMessage(), ex);
        }
    }

    /**
     * @param config a validated configuration.
     * @return the configuration as a tree in the schema's keys.
     */
    public static ObjectNode tree(final ApplianceConfig config)
    {
        final ObjectNode root = NODES.objectNode();
        final TranslatorConfig t = config.translator();
        root.putObject("translator")
            .put("mac", NetAddress.macToString(t.mac()))
            .put("ip", NetAddress.ipv4ToString(t.ip()))
            .put("dscp", t.dscp())
            .put("ecn", t.ecn())
            .put("ttl", t.ttl())
            .put("pKey", hex(t.pKey()));
        final ReportsConfig r = config.reports();
        root.putObject("reports")
            .put("udpPort", r.udpPort())
            .put("baseHeader", baseHeader(r.baseHeader()))
            .put("verifyChecksums", r.verifyChecksums())
            .put("nackPort", r.nackPort())
            .put("sequenceTimeoutMicros", r.sequenceTimeoutMicros());
        root.putObject("redundancy").put("max", config.redundancy().max());
        root.putObject("append")
            .put("batchSize", config.append().batchSize())
            .put("idleFlushMicros", config.append().idleFlushMicros());
        root.putObject("postcards")
            .put("hops", config.postcards().hops())
            .put("idleFlushMicros", config.postcards().idleFlushMicros())
            .put("cacheEntries", config.postcards().cacheEntries());
        root.putObject("acks")
            .put("requestInterval", config.acks().requestInterval())
            .put("timeoutMicros", config.acks().timeoutMicros());
        root.putObject("resync")
            .put("graceMicros", config.resync().graceMicros())
            .put("gracePackets", config.resync().gracePackets());
        root.putObject("essential").put("backlog", config.essential().backlog());
        final ConnectionConfig c = config.connection();
        root.putObject("connection")
            .put("cmResponseTimeout", c.cmResponseTimeout())
            .put("maxCmRetries", c.maxCmRetries())
            .put("localAckTimeout", c.localAckTimeout())
            .put("retryCount", c.retryCount())
            .put("reconnectAttempts", c.reconnectAttempts())
            .put("reconnectBackoffMillis", c.reconnectBackoffMillis())
            .put("silenceTimeoutMillis", c.silenceTimeoutMillis());
        final ArrayNode collectors = root.putArray("collectors");
        for (final CollectorConfig collector : config.collectors())
        {
            collectors.add(collector(collector));
        }
        return root;
    }

    private static ObjectNode collector(final CollectorConfig collector)
    {
        final ObjectNode node = NODES.objectNode()
            .put("name", collector.name())
            .put("mac", NetAddress.macToString(collector.mac()))
            .put("ip", NetAddress.ipv4ToString(collector.ip()))
            .put("pathMtu", collector.pathMtu());
        if (null != collector.keyWrite())
        {
            region(node.putObject("keyWrite"), collector.keyWrite().region())
                .put("slotSize", collector.keyWrite().slotSize());
        }
        if (null != collector.keyIncrement())
        {
            region(node.putObject("keyIncrement"), collector.keyIncrement().region())
                .put("maxOutstandingAtomics", collector.keyIncrement().maxOutstandingAtomics())
                .put("atomicQueueSize", collector.keyIncrement().atomicQueueSize());
        }
        if (null != collector.postcards())
        {
            region(node.putObject("postcards"), collector.postcards().region());
        }
        if (!collector.lists().isEmpty())
        {
            final ArrayNode lists = node.putArray("lists");
            for (final ListConfig list : collector.lists())
            {
                final ObjectNode item = lists.addObject().put("id", list.id());
                region(item, list.region()).put("layout", list.layout().name().toLowerCase(Locale.ROOT));
            }
        }
        if (!collector.sketches().isEmpty())
        {
            final ArrayNode sketches = node.putArray("sketches");
            for (final SketchConfig sketch : collector.sketches())
            {
                sketches.add(sketch(sketch));
            }
        }
        return node;
    }

    private static ObjectNode sketch(final SketchConfig sketch)
    {
        final ObjectNode item = NODES.objectNode()
            .put("id", sketch.id())
            .put("type", sketch.type().text())
            .put("rows", sketch.rows())
            .put("columns", sketch.columns())
            .put("switches", sketch.switches())
            .put("batchColumns", sketch.batchColumns())
            .put("epochs", sketch.epochs())
            .put("epochTimeoutMicros", sketch.epochTimeoutMicros())
            .put("nackRetryMicros", sketch.nackRetryMicros())
            .put("nackRetries", sketch.nackRetries());
        return region(item, sketch.region());
    }

    /**
     * The region's QP keys: a negotiated region has its service port and none of the values the collector tells.
     */
    private static ObjectNode region(final ObjectNode node, final RegionConfig region)
    {
        node.put("localQpn", hex(region.localQpn()));
        if (region.negotiated())
        {
            node.put("servicePort", region.servicePort());
        }
        else
        {
            node.put("qpn", hex(region.qpn()))
                .put("rkey", hex(region.rkey()))
                .put("address", "0x" + Long.toHexString(region.address()));
        }
        return node.put("length", region.length())
            .put("startPsn", hex(region.startPsn()))
            .put("udpSourcePort", region.udpSourcePort());
    }

    private static String baseHeader(final BaseHeader baseHeader)
    {
        return switch (baseHeader)
        {
            case THREE -> "3";
            case TWO -> "2";
            case AUTO -> "auto";
        };
    }

    private static String hex(final long value)
    {
        return "0x" + Long.toHexString(value);
    }
}
