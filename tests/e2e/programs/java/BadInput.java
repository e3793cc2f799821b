// A Java program with the first hour's mistake the quickstart cannot make: an API key whose expiry is in the past
// (tests/e2e/java.test.ts compiles it beside examples/java-quickstart's App, in its package, and previews it). The
// provider refuses it at preview naming `expiresAt`, as this program spells it.
package quickstart;

import com.pulumi.Pulumi;
import com.pulumilangsmith.langsmith.ApiKey;
import com.pulumilangsmith.langsmith.ApiKeyArgs;

public class BadInput {
    public static void main(String[] args) {
        Pulumi.run(ctx -> new ApiKey("ci", ApiKeyArgs.builder()
            .description("ci")
            .roleId("WORKSPACE_USER")
            .expiresAt("2020-01-01T00:00:00Z")
            .build()));
    }
}
