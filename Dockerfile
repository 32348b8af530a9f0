FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN npm i -g pnpm@10.34.9
COPY . .
RUN pnpm install --frozen-lockfile && pnpm build
# A developer's local data folder (its session-secret, an embedded database) or .env must not ship.
RUN find . -name node_modules -prune -o \( -name .data -o -name '.env*' \) -prune -exec rm -rf {} +

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
EXPOSE 3000
USER node
CMD ["node", "--enable-source-maps", "apps/api/dist/server.js"]
