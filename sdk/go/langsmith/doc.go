// LangSmith Deployment (control plane), bulk export of traces to S3-compatible buckets, and a check of the interrupt strategy of deployed agent servers.
package langsmith
