-- Issue 30: the desk searches contacts by phone number too. A contact's search text now ends with its
-- phone number's digits and, for an international number of a country that writes a leading 0, the
-- national form (phoneForms in src/modules/customers/contact-fields.ts): the same for the contacts
-- stored before. search_text is outside the audit trail and the change order (migration 0030).
WITH phones AS (
  SELECT organisation_id, id, btrim(data->>'Telefoon') AS written,
         CASE WHEN btrim(data->>'Telefoon') LIKE '00%'
              THEN substr(regexp_replace(data->>'Telefoon', '[^0-9]', '', 'g'), 3)
              ELSE regexp_replace(data->>'Telefoon', '[^0-9]', '', 'g') END AS digits
    FROM customers
   WHERE data->>'Telefoon' ~ '[0-9]'
), forms AS (
  SELECT organisation_id, id,
         CASE WHEN (written LIKE '+%' OR written LIKE '00%')
                   AND substr(digits, 1, 2) IN ('32', '31', '33', '49', '44')
              THEN digits || ' 0' || substr(digits, 3)
              ELSE digits END AS text
    FROM phones
   WHERE digits <> ''
)
UPDATE customers c
   SET search_text = CASE WHEN c.search_text = '' THEN f.text ELSE c.search_text || ' ' || f.text END
  FROM forms f
 WHERE c.organisation_id = f.organisation_id AND c.id = f.id;
