package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta query bench} on a small store: a point per N, hit share and thread count, the list read, every
 * rate positive (no timing is checked), and its refusal of bad arguments.
 */
class QueryBenchCommandTest
{
    @Test
    void shouldMeasureEveryPointAndTheListRead() throws Exception
    {
        final CollectorEndToEndTest.Run run = CollectorEndToEndTest.run(new QueryCommand(), "bench", "--store-mib",
            "1", "--redundancy", "1,3", "--hit-percent", "100,0", "--threads", "2", "--seconds", "0.05",
            "--list-kib", "16", "--json");
        assertEquals(0, run.exitCode(), run.err());
        final List<JsonNode> points = new ArrayList<>();
        for (final String line : run.out().split("\\R"))
        {
            points.add(QueryCommand.MAPPER.readTree(line));
        }
        assertEquals(2 * 2 * 2 + 1, points.size(), run.out());
        for (final JsonNode p : points)
        {
            assertTrue(p.get("perThreadPerSecond").asLong() > 0, p.toString());
            assertTrue(p.has("allocatedBytesPerQuery"), p.toString());
        }
        assertEquals("list", points.get(points.size() - 1).get("query").asText());
        assertEquals(2, points.get(1).get("threads").asInt());
    }

    @Test
    void shouldRefuseBadArguments()
    {
        assertEquals(2, CollectorEndToEndTest.run(new QueryCommand(), "bench", "--store-mib", "3").exitCode());
        assertEquals(2, CollectorEndToEndTest.run(new QueryCommand(), "bench", "--redundancy", "0").exitCode());
    }
}
