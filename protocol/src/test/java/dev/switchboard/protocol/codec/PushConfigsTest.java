package dev.switchboard.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import org.junit.jupiter.api.Test;

class PushConfigsTest {

    private static final JsonNode NESTED_03 = Json.parse("{\"taskId\":\"t\",\"pushNotificationConfig\":{\"id\":\"cfg\","
            + "\"url\":\"https://hook\",\"token\":\"tok\",\"authentication\":{\"schemes\":[\"Bearer\",\"Basic\"],\"credentials\":\"c\"}}}");
    private static final JsonNode FLAT_10 = Json.parse("{\"taskId\":\"t\",\"id\":\"cfg\",\"url\":\"https://hook\",\"token\":\"tok\","
            + "\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"c\"}}");

    @Test
    void nested03BecomesFlat10KeepingTheFirstScheme() {
        assertThat(PushConfigs.to10(NESTED_03)).isEqualTo(FLAT_10);
    }

    @Test
    void flat10BecomesNested03WithASchemesArray() {
        assertThat(PushConfigs.taskConfigTo03(FLAT_10).toString()).isEqualTo("{\"taskId\":\"t\",\"pushNotificationConfig\":"
                + "{\"id\":\"cfg\",\"url\":\"https://hook\",\"token\":\"tok\",\"authentication\":{\"schemes\":[\"Bearer\"],\"credentials\":\"c\"}}}");
    }

    @Test
    void sendConfigurationShapeDropsTaskIdAndTenant() {
        JsonNode withTenant = ((com.fasterxml.jackson.databind.node.ObjectNode) FLAT_10.deepCopy()).put("tenant", "acme");
        assertThat(PushConfigs.to03(withTenant).has("taskId")).isFalse();
        assertThat(PushConfigs.to03(withTenant).has("tenant")).isFalse();
    }

    @Test
    void configAlreadyInTargetShapeIsUnchanged() {
        assertThat(PushConfigs.to10(FLAT_10)).isEqualTo(FLAT_10);
        JsonNode bare03 = NESTED_03.get("pushNotificationConfig");
        assertThat(PushConfigs.to03(bare03)).isEqualTo(bare03);
    }

    @Test
    void listResultsConvertBetweenBareArrayAndPagedObject() {
        JsonNode array03 = Json.mapper().createArrayNode().add(NESTED_03);
        JsonNode paged = PushConfigs.listResultTo10(array03);
        assertThat(paged.toString()).isEqualTo("{\"configs\":[" + FLAT_10 + "],\"nextPageToken\":\"\"}");
        assertThat(PushConfigs.listResultTo03(paged).get(0).at("/pushNotificationConfig/authentication/schemes/0").asText())
                .isEqualTo("Bearer");
    }

    @Test
    void getAndDeleteParamsRenameTheIds() {
        JsonNode p03 = Json.parse("{\"id\":\"t\",\"pushNotificationConfigId\":\"cfg\"}");
        JsonNode p10 = Json.parse("{\"taskId\":\"t\",\"id\":\"cfg\"}");
        assertThat(PushConfigs.refTo10(p03)).isEqualTo(p10);
        assertThat(PushConfigs.refTo03(p10)).isEqualTo(p03);
        assertThat(PushConfigs.listParamsTo10(Json.parse("{\"id\":\"t\"}"))).isEqualTo(Json.parse("{\"taskId\":\"t\"}"));
        assertThat(PushConfigs.listParamsTo03(Json.parse("{\"taskId\":\"t\",\"pageSize\":5}"))).isEqualTo(Json.parse("{\"id\":\"t\"}"));
    }
}
