-- The segment key the shop's entities use, created before the application starts (its generators check for it).
INSERT INTO leaf_alloc (biz_tag, max_id, step, description) VALUES ('order', 1000, 100, 'slice test');
