# The agent worker for a Temporal cluster (see docker-compose.yml). Node 22 runs the TypeScript sources
# directly (type stripping); the workflow bundle is built once at start.
FROM node:22-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY workflows ./workflows
COPY activities ./activities
COPY src ./src
COPY examples ./examples
ENV NODE_ENV=production AGENT_DATA_DIR=/data
VOLUME /data
USER node
# The heap limit: src/worker/node-args.ts.
CMD ["node", "--max-old-space-size=1024", "src/cli/cli.ts", "worker"]
