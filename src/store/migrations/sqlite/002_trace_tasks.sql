-- The workflow task that wrote each trace line (src/store/trace-tasks.ts); null for earlier lines.
ALTER TABLE trace_lines ADD COLUMN run_start_ms INTEGER;
ALTER TABLE trace_lines ADD COLUMN history_length INTEGER;
