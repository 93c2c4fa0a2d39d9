package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.gen.SketchTraffic;
import io.dta.codec.Ipv4Address;
import io.dta.config.SketchType;

import java.util.Map;

/**
 * The JSON that {@code dta gen} writes about its sketch traffic: the summary per sketch and the {@code --truth}
 * file (docs/gen.md, "Sketch traffic").
 */
final class SketchTruth
{
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private SketchTruth()
    {
    }

    private static ObjectNode describe(final ReportGenerator generator, final SketchTraffic t)
    {
        final ObjectNode node = MAPPER.createObjectNode();
        node.put("collectorIp", Ipv4Address.format(generator.collectorIpOf(t.collectorIndex())));
        node.put("sketchId", t.sketch().id());
        node.put("type", t.sketch().type().text());
        node.put("rows", t.sketch().rows());
        node.put("columns", t.sketch().columns());
        node.put("switches", t.switches());
        return node;
    }

    /**
     * @param generator a generator after its run.
     * @return per sketch: identity, shape and what was sent.
     */
    static ArrayNode summary(final ReportGenerator generator)
    {
        final ArrayNode list = MAPPER.createArrayNode();
        for (final SketchTraffic t : generator.sketchTraffic())
        {
            list.add(describe(generator, t)
                .put("frames", t.frames())
                .put("gaps", t.gaps())
                .put("columnsPastGaps", t.aheadFrames())
                .put("duplicates", t.duplicates())
                .put("finished", t.done()));
        }
        return list;
    }

    /**
     * @param generator a generator run with truth recording.
     * @return the truth document.
     */
    static String json(final ReportGenerator generator)
    {
        final ObjectNode root = MAPPER.createObjectNode();
        final ArrayNode sketches = root.putArray("sketches");
        for (final SketchTraffic t : generator.sketchTraffic())
        {
            final ObjectNode sketch = describe(generator, t);
            sketches.add(sketch);
            final ArrayNode epochs = sketch.putArray("epochs");
            final int rows = t.sketch().rows();
            final int columns = t.sketch().columns();
            for (final SketchTraffic.EpochTruth e : t.truth())
            {
                final ObjectNode epoch = epochs.addObject();
                epoch.put("epoch", e.epoch());
                epoch.put("complete", e.complete());
                final ArrayNode contributors = epoch.putArray("contributors");
                for (final int s : e.contributors())
                {
                    contributors.add(s);
                }
                final ArrayNode sent = epoch.putArray("sentColumns");
                for (final int c : e.sentColumns())
                {
                    sent.add(c);
                }
                final ArrayNode counters = epoch.putArray("cells");
                for (int r = 0; r < rows; r++)
                {
                    final ArrayNode row = counters.addArray();
                    for (int c = 0; c < columns; c++)
                    {
                        final int raw = e.merged()[c * rows + r];
                        row.add(t.sketch().type() == SketchType.COUNT_SKETCH ? raw : raw & 0xFFFF_FFFFL);
                    }
                }
                epoch.put("items", e.items());
                epoch.put("distinct", e.distinct());
                if (t.sketch().type() != SketchType.HYPERLOGLOG)
                {
                    final ObjectNode keys = epoch.putObject("keys");
                    for (final Map.Entry<Long, Long> k : e.keyCounts().entrySet())
                    {
                        keys.put(Long.toString(k.getKey()), k.getValue());
                    }
                }
            }
        }
        return root.toString();
    }
}
