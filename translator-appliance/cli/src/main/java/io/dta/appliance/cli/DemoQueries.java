package io.dta.appliance.cli;

import io.dta.appliance.gen.GeneratorSettings;
import io.dta.collector.query.KeyWriteResult;
import io.dta.collector.query.ListReadResult;
import io.dta.collector.query.PostcardResult;
import io.dta.collector.query.SketchEpoch;
import io.dta.collector.query.StoreQueries;
import io.dta.collector.store.CollectorStore;
import io.dta.config.ApplianceConfig;
import io.dta.config.CollectorConfig;
import io.dta.config.ListConfig;
import io.dta.config.ListLayout;
import io.dta.config.SketchConfig;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's sample queries: one per region of every collector, read back from the collector's stores. Each is a
 * JSON object with the {@code dta query} command that asks it ({@code command}), what kind of query it is
 * ({@code query}) and its answer in fields named as {@code dta query --json} names them; {@link #line} words one for
 * the text output.
 */
final class DemoQueries
{
    /**
     * The keys the demo saw last, per collector: a Key-Write key and its redundancy, a counter key and its
     * redundancy, a postcard flow; -1 for none.
     */
    record Keys(long keyWrite, int keyWriteRedundancy, long counter, int counterRedundancy, long postcard)
    {
    }

    private DemoQueries()
    {
    }

    /**
     * @param appliance the configuration.
     * @param stores    each collector's store, in configuration order.
     * @param keys      each collector's sample keys, in configuration order.
     * @return one object per query.
     */
    static List<Map<String, Object>> of(
        final ApplianceConfig appliance, final List<CollectorStore> stores, final List<Keys> keys)
    {
        final List<Map<String, Object>> out = new ArrayList<>();
        final List<CollectorConfig> collectors = appliance.collectors();
        for (int i = 0; i < collectors.size(); i++)
        {
            final CollectorConfig collector = collectors.get(i);
            // With several collectors each query names its own, as the command it shows must.
            final String which = collectors.size() > 1 ? " --collector " + collector.name() : "";
            final StoreQueries q = new StoreQueries(appliance, stores.get(i));
            keyWrite(out, which, collector, q, keys.get(i));
            counter(out, which, collector, q, keys.get(i));
            lists(out, which, collector, q);
            sketches(out, which, collector, q);
            postcard(out, which, collector, q, keys.get(i));
        }
        return out;
    }

    /**
     * @param query one object of {@link #of}.
     * @return the command and its answer in words, for the text output.
     */
    static String line(final Map<String, Object> query)
    {
        return query.get("command") + "  ->  " + switch ((String)query.get("query"))
        {
            case "keywrite" -> Boolean.TRUE.equals(query.get("found")) ? "value " + query.get("value") + " (" +
                query.get("agreeing") + " of " + query.get("matches") + " copies agree)" : (String)query.get("status");
            case "counter" -> String.valueOf(query.get("value"));
            case "list" -> query.get("entriesRetained") + " entries retained, cursor " + query.get("cursor") +
                (query.containsKey("newest") ? ", newest " + query.get("newest") :
                "reference".equals(query.get("layout")) && !Long.valueOf(0).equals(query.get("entriesRetained")) ?
                ", reference ring (slot order, not arrival order, once wrapped)" : "");
            case "sketch" -> query.get("state") + (query.containsKey("completeColumns") ? ", " +
                query.get("contributingSwitches") + " of " + query.get("switches") + " switches, " +
                query.get("completeColumns") + " of " + query.get("columns") + " columns complete" : "");
            default -> postcardWords(query);
        };
    }

    private static String postcardWords(final Map<String, Object> query)
    {
        if (Boolean.TRUE.equals(query.get("found")))
        {
            final StringBuilder path = new StringBuilder();
            for (final Object hop : (List<?>)query.get("hops"))
            {
                path.append(path.isEmpty() ? "" : " ").append(null == hop ? "-" : hop);
            }
            return "path [" + path + "]";
        }
        return Boolean.TRUE.equals(query.get("collision")) ? "slot holds flow " + query.get("collidingKey") :
            "not found";
    }

    private static Map<String, Object> query(
        final List<Map<String, Object>> out, final String kind, final String which, final String args,
        final CollectorConfig collector)
    {
        final Map<String, Object> q = new LinkedHashMap<>();
        q.put("command", "dta query" + which + " " + kind + args);
        q.put("query", kind);
        q.put("collector", collector.name());
        out.add(q);
        return q;
    }

    private static void keyWrite(
        final List<Map<String, Object>> out, final String which, final CollectorConfig collector,
        final StoreQueries store, final Keys keys)
    {
        if (keys.keyWrite() < 0 || null == collector.keyWrite())
        {
            return;
        }
        final KeyWriteResult r = store.keyWrite().lookup(keys.keyWrite(), keys.keyWriteRedundancy(), false);
        final Map<String, Object> q = query(out, "keywrite", which,
            " --key " + keys.keyWrite() + " --redundancy " + keys.keyWriteRedundancy(), collector);
        q.put("key", keys.keyWrite());
        q.put("redundancy", keys.keyWriteRedundancy());
        q.put("found", r.found());
        if (r.found())
        {
            q.put("value", r.value());
        }
        q.put("status", r.status().name().toLowerCase(Locale.ROOT));
        q.put("matches", r.matches());
        q.put("agreeing", r.agreeing());
    }

    private static void counter(
        final List<Map<String, Object>> out, final String which, final CollectorConfig collector,
        final StoreQueries store, final Keys keys)
    {
        if (keys.counter() < 0 || null == collector.keyIncrement())
        {
            return;
        }
        final long value = store.counters().value(keys.counter(), keys.counterRedundancy());
        final Map<String, Object> q = query(out, "counter", which,
            " --key " + keys.counter() + " --redundancy " + keys.counterRedundancy(), collector);
        q.put("key", keys.counter());
        q.put("redundancy", keys.counterRedundancy());
        q.put("value", new BigInteger(Long.toUnsignedString(value)));
    }

    private static void lists(
        final List<Map<String, Object>> out, final String which, final CollectorConfig collector,
        final StoreQueries store)
    {
        for (final ListConfig list : collector.lists())
        {
            final ListReadResult r = store.list(list.id()).read(0);
            final int n = r.entries().length;
            final Map<String, Object> q = query(out, "list", which, " --id " + list.id(), collector);
            q.put("listId", list.id());
            q.put("layout", list.layout().name().toLowerCase(Locale.ROOT));
            q.put("entriesRetained", (long)n);
            q.put("cursor", r.cursor());
            // A reference ring has no order a reader can see once it wrapped: its last slot is not its newest entry.
            if (n > 0 && ListLayout.REFERENCE != list.layout())
            {
                q.put("newest", r.entries()[n - 1]);
            }
        }
    }

    private static void sketches(
        final List<Map<String, Object>> out, final String which, final CollectorConfig collector,
        final StoreQueries store)
    {
        for (final SketchConfig sketch : collector.sketches())
        {
            // The generator's first epoch: complete unless the sketch's share of the reports ran out mid-epoch.
            final SketchEpoch e = store.sketch(sketch.id()).read(GeneratorSettings.DEFAULT_FIRST_EPOCH);
            final Map<String, Object> q = query(out, "sketch", which,
                " --id " + sketch.id() + " --epoch " + GeneratorSettings.DEFAULT_FIRST_EPOCH, collector);
            q.put("sketchId", sketch.id());
            q.put("epoch", GeneratorSettings.DEFAULT_FIRST_EPOCH);
            q.put("state", e.state().name().toLowerCase(Locale.ROOT));
            if (e.hasCells())
            {
                q.put("contributingSwitches", e.contributors());
                q.put("switches", e.switches());
                q.put("completeColumns", e.completeColumns());
                q.put("columns", e.columns());
            }
        }
    }

    private static void postcard(
        final List<Map<String, Object>> out, final String which, final CollectorConfig collector,
        final StoreQueries store, final Keys keys)
    {
        if (keys.postcard() < 0 || null == collector.postcards())
        {
            return;
        }
        final PostcardResult r = store.postcards().path(keys.postcard());
        final Map<String, Object> q = query(out, "postcard", which, " --key " + keys.postcard(), collector);
        q.put("key", keys.postcard());
        q.put("found", r.found());
        if (r.found())
        {
            final List<Long> hops = new ArrayList<>();
            for (int h = 1; h <= r.hops().length; h++)
            {
                hops.add(r.hasHop(h) ? r.hops()[h - 1] : null);
            }
            q.put("hops", hops);
        }
        q.put("collision", r.collision());
        if (r.collision())
        {
            q.put("collidingKey", r.storedKey());
        }
    }
}
