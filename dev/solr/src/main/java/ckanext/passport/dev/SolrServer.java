package ckanext.passport.dev;

import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/** Runs Solr's own Jetty server from a solr home, bound to loopback, until the process is stopped. */
public final class SolrServer {
    private SolrServer() {}

    public static void main(String[] args) throws Exception {
        String home = args[0];
        int port = Integer.parseInt(args[1]);
        System.setProperty("host", "127.0.0.1");
        System.setProperty("jetty.host", "127.0.0.1");
        JettyConfig config = JettyConfig.builder().setPort(port).setContext("/solr").stopAtShutdown(true).build();
        JettySolrRunner runner = new JettySolrRunner(home, config);
        runner.start();
        System.out.println("Solr listening on http://127.0.0.1:" + runner.getLocalPort() + "/solr");
        Thread.currentThread().join();
    }
}
