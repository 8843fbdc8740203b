/* SPDX-License-Identifier: MIT */
/*
 * test_lint.c - every contract error and note, one invalid contract each
 * (tests/data/lint/NAME.yaml), with its exact diagnostics in gcc's form:
 * file, line, column and message, sorted by position, every one in one run.
 *
 * The contracts are loaded from memory with the display name NAME.yaml, so
 * the expected text does not depend on where the tree is checked out.  To
 * review a change of wording, print a case with `contractc lint`.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "load.h"
#include "model.h"
#include "text.h"

#define LINT_DIR CONTRACTC_TEST_DATA "/lint/"

typedef struct lint_case {
    const char *name;     /* tests/data/lint/NAME.yaml */
    const char *expected; /* the complete printed diagnostics */
} lint_case_t;

static const lint_case_t cases[] = {
    {"anchors_and_aliases",
         "anchors_and_aliases.yaml:5:6: error: anchors ('&s') are not supported in a contract; write the value out\n"
         "anchors_and_aliases.yaml:6:6: error: aliases ('*s') are not supported in a contract; write the value out\n"},
    {"array_without_items",
         "array_without_items.yaml:6:5: error: an array needs 'items' in field 'tags'\n"},
    {"bom_at_start_is_skipped",
         "bom_at_start_is_skipped.yaml:1:11: error: invalid contract name 'Bad-Name'; it is the C prefix of every generated name: [a-z][a-z0-9_]*\n"},
    {"bom_elsewhere",
         "bom_elsewhere.yaml:4:1: error: a byte order mark (U+FEFF, bytes ef bb bf) is allowed only at the very start of a contract; delete this one (most editors do not show it)\n"
         "bom_elsewhere.yaml:6:36: error: a byte order mark (U+FEFF, bytes ef bb bf) is allowed only at the very start of a contract; delete this one (most editors do not show it)\n"},
    {"boolean_spelt_yes",
         "boolean_spelt_yes.yaml:7:15: error: 'nullable' expects true or false, found 'yes'\n"
         "boolean_spelt_yes.yaml:10:15: error: 'nullable' expects true or false, found a string\n"},
    {"check_function_collides",
         "check_function_collides.yaml:10:23: error: the C name 'k_parse' of the check function of rule 'rules[0]' collides with the generated function 'k_parse'\n"
         "check_function_collides.yaml:11:23: error: the C name 'k_a_t' of the check function of rule 'rules[1]' collides with that of field 'a'\n"
         "check_function_collides.yaml:7:3: note: field 'a' is here\n"
         "check_function_collides.yaml:12:23: error: the C name 'shared' of the check function of rule 'rules[2]' collides with that of the check function of rule 'types.T.rules[0]'\n"
         "check_function_collides.yaml:5:63: note: the check function of rule 'types.T.rules[0]' is here\n"},
    {"check_function_not_identifier",
         "check_function_not_identifier.yaml:7:23: error: check function 'my-check' is not a C identifier\n"
         "check_function_not_identifier.yaml:8:23: error: check function 'return' is not a C identifier\n"},
    {"columns_count_bytes",
         "columns_count_bytes.yaml:5:39: error: unknown type 'strng' in field 'a'; did you mean 'string'?\n"
         "columns_count_bytes.yaml:6:52: error: invalid pattern: missing ')' for the group opened here\n"},
    {"compare_types_differ",
         "compare_types_differ.yaml:14:45: error: rule 'rules[0]' compares 'start' (date) with 'end' (datetime); compare takes two fields of one type\n"
         "compare_types_differ.yaml:15:21: error: rule 'rules[1]': compare takes only == or != on string, enum and boolean fields; 'n' and 'm' are of type string\n"
         "compare_types_differ.yaml:16:44: error: rule 'rules[2]' compares field 'start' with itself\n"
         "compare_types_differ.yaml:17:21: error: rule 'rules[3]': compare takes only == or != on string, enum and boolean fields; 'e' and 'f' are of type enum\n"
         "compare_types_differ.yaml:18:41: error: rule 'rules[4]' compares 'n' (string) with 'e' (enum); compare takes two fields of one type\n"
         "compare_types_differ.yaml:19:21: error: rule 'rules[5]': compare takes integer, decimal, number, date, datetime, string, enum or boolean fields; 'xs' and 'ys' are of type array\n"},
    {"compare_unknown_operator",
         "compare_unknown_operator.yaml:8:28: error: unknown operator '=<'; 'op' is one of <, <=, ==, !=, >=, >\n"},
    {"contract_name_is_keyword",
         "contract_name_is_keyword.yaml:1:11: error: contract name 'int' is a C keyword; the record's struct tag would not compile\n"},
    {"decimal_bound_too_precise",
         "decimal_bound_too_precise.yaml:8:14: error: 'minimum' \"0.001\" has 3 fraction digits; the field's scale is 2\n"
         "decimal_bound_too_precise.yaml:9:14: error: 'maximum' of a decimal expects a quoted decimal string such as '10.00', found a number\n"},
    {"duplicate_field",
         "duplicate_field.yaml:7:3: error: duplicate key 's'\n"
         "duplicate_field.yaml:5:3: note: 's' first appears here\n"},
    {"duplicate_key",
         "duplicate_key.yaml:8:5: error: duplicate key 'description'\n"
         "duplicate_key.yaml:7:5: note: 'description' first appears here\n"},
    {"duplicate_rule_id",
         "duplicate_rule_id.yaml:9:5: error: duplicate rule id 'pair'\n"
         "duplicate_rule_id.yaml:8:5: note: rule 'pair' first appears here\n"},
    {"empty_file",
         "empty_file.yaml: error: the file is empty; a contract needs 'contract', 'version', 'instruction' and 'fields'\n"},
    {"empty_object",
         "empty_object.yaml:5:29: error: an object needs at least one field\n"},
    {"enum_constants_collide_across_enums",
         "enum_constants_collide_across_enums.yaml:6:30: error: the C name 'T_A_B_C' of enum value 'c' of field 'a_b' collides with that of enum value 'b_c' of field 'a'\n"
         "enum_constants_collide_across_enums.yaml:5:28: note: enum value 'b_c' of field 'a' is here\n"},
    {"enum_functions_collide", /* t_a_from_name: a_from's name function, a's from_name */
         "enum_functions_collide.yaml:6:3: error: the C name 't_a_from_name' of the name function of field 'a_from' collides with that of the from_name function of field 'a'\n"
         "enum_functions_collide.yaml:5:3: note: the from_name function of field 'a' is here\n"},
    {"enum_duplicate_value",
         "enum_duplicate_value.yaml:7:20: error: duplicate enum value 'x'\n"
         "enum_duplicate_value.yaml:7:14: note: 'x' first appears here\n"},
    {"enum_value_empty",
         "enum_value_empty.yaml:7:19: error: the empty enum value of field 'answer' has no C constant (it would be 'T_ANSWER_')\n"},
    {"enum_value_none_is_reserved",
         "enum_value_none_is_reserved.yaml:7:23: error: enum value 'None' of field 'answer' gives the C constant 'T_ANSWER_NONE', which is reserved for null\n"},
    {"enum_values_collide_after_mangling",
         "enum_values_collide_after_mangling.yaml:7:22: error: the C name 'T_KIND_A_B' of enum value 'a_b' of field 'kind' collides with that of enum value 'a-b' of field 'kind'\n"
         "enum_values_collide_after_mangling.yaml:7:14: note: enum value 'a-b' of field 'kind' is here\n"},
    {"enum_values_differ_only_in_case",
         "enum_values_differ_only_in_case.yaml:7:19: error: the C name 'T_CURRENCY_EUR' of enum value 'eur' of field 'currency' collides with that of enum value 'EUR' of field 'currency'\n"
         "enum_values_differ_only_in_case.yaml:7:14: note: enum value 'EUR' of field 'currency' is here; the values differ only in case, and C constants are in capitals\n"},
    {"enum_without_values",
         "enum_without_values.yaml:7:13: error: empty enum in field 'a': 'values' needs at least one value\n"
         "enum_without_values.yaml:9:5: error: missing key 'values' in field 'b'\n"},
    {"example_on_array_items", /* one advice, on the array field and on its items */
         "example_on_array_items.yaml:7:5: error: 'example' is for scalar fields; this is a field of type array (to show the model a list, write it in 'format_text')\n"
         "example_on_array_items.yaml:10:7: error: key 'example' is not valid in the items of field 'tags': an example is for scalar fields, not array items; to show the model a list, write it in the array field's 'format_text'\n"},
    {"example_on_object",
         "example_on_object.yaml:8:5: error: 'example' is for scalar fields; this is a field of type object (to show the model an object, write it in 'format_text')\n"},
    {"example_violates_constraints",
         "example_violates_constraints.yaml:5:55: error: example '10' of field 'n' is not a valid value: above maximum 9\n"
         "example_violates_constraints.yaml:6:43: error: example 'USD' of field 'c' is not a valid value: not one of the enum's values\n"
         "example_violates_constraints.yaml:7:41: error: example '1.5' of field 'd' is not a valid value: not a decimal like \"1250.00\" (2 fraction digits, no sign)\n"
         "example_violates_constraints.yaml:8:51: error: example 'B-1' of field 'p' is not a valid value: it does not match the pattern 'A-[0-9]+'\n"
         "example_violates_constraints.yaml:9:45: error: example 'abc' of field 's' is not a valid value: 3 characters, more than max_length 2\n"
         "example_violates_constraints.yaml:10:31: error: 'example' of a field of type integer expects an integer, found a string\n"
         "example_violates_constraints.yaml:11:28: error: example '2024-02-30' of field 'w' is not a valid value: not a calendar date YYYY-MM-DD\n"},
    {"grounded_on_non_string",
         "grounded_on_non_string.yaml:8:5: error: 'grounded' applies to strings only; this is a field of type integer\n"},
    {"grounded_without_source",
         "grounded_without_source.yaml:5:3: error: field 'quote' is grounded, but the contract has no 'source' to ground it in; add source: {name: ..., description: ...}\n"},
    {"integer_written_as_string",
         "integer_written_as_string.yaml:7:17: error: 'min_length' expects an integer, found a string\n"
         "integer_written_as_string.yaml:8:17: error: 'max_length' expects an integer, found '3.5'\n"},
    {"invalid_contract_name",
         "invalid_contract_name.yaml:1:11: error: invalid contract name 'Refund-Request'; it is the C prefix of every generated name: [a-z][a-z0-9_]*\n"},
    {"invalid_field_name",
         "invalid_field_name.yaml:5:3: error: invalid field name 'order id'; a field name is [A-Za-z_][A-Za-z0-9_]*\n"
         "invalid_field_name.yaml:6:3: error: invalid field name '2nd'; a field name is [A-Za-z_][A-Za-z0-9_]*\n"},
    {"invalid_utf8",
         "invalid_utf8.yaml:4:17: error: invalid YAML: invalid leading UTF-8 octet (byte 0xff); a contract is UTF-8 text\n"},
    {"key_not_valid_for_type",
         "key_not_valid_for_type.yaml:7:5: error: key 'scale' is not valid for a field of type string\n"
         "key_not_valid_for_type.yaml:10:5: error: key 'items' is not valid for a field of type integer\n"},
    {"keyword_field_names_note",
         "keyword_field_names_note.yaml:5:3: note: field 'class' is a C keyword; its C member is 'class_'\n"
         "keyword_field_names_note.yaml:6:3: note: field 'new' is a C keyword; its C member is 'new_'\n"},
    {"keyword_member_collides",
         "keyword_member_collides.yaml:5:3: note: field 'default' is a C keyword; its C member is 'default_'\n"
         "keyword_member_collides.yaml:6:3: error: the C name 'default_' of field 'default_' collides with that of field 'default'\n"
         "keyword_member_collides.yaml:5:3: note: field 'default' is here\n"},
    {"member_names_collide",
         "member_names_collide.yaml:6:3: error: the C name 'has_amount' of field 'has_amount' collides with that of the null flag of field 'amount'\n"
         "member_names_collide.yaml:5:3: note: the null flag of field 'amount' is here\n"
         "member_names_collide.yaml:8:3: error: the C name 'name_len' of field 'name_len' collides with that of the length of field 'name'\n"
         "member_names_collide.yaml:7:3: note: the length of field 'name' is here\n"
         "member_names_collide.yaml:9:3: error: the C name 'arena_' of field 'arena_' collides with the record's arena member 'arena_'\n"},
    {"merge_key_refused",
         "merge_key_refused.yaml:6:5: error: merge keys ('<<') are not supported in a contract; write the keys out\n"
         "merge_key_refused.yaml:6:5: error: missing key 'type' in field 'a'\n"},
    {"min_items_above_max_items",
         "min_items_above_max_items.yaml:9:16: error: min_items 3 is greater than max_items 2\n"},
    {"min_length_above_max_length",
         "min_length_above_max_length.yaml:8:17: error: min_length 5 is greater than max_length 4\n"},
    {"minimum_above_maximum",
         "minimum_above_maximum.yaml:8:14: error: minimum 10 is greater than maximum 1\n"
         "minimum_above_maximum.yaml:12:14: error: minimum 1.5 is greater than maximum -2e1\n"
         "minimum_above_maximum.yaml:17:14: error: minimum \"5\" is greater than maximum \"4.99\"\n"},
    {"missing_required_keys",
         "missing_required_keys.yaml:1:1: error: missing key 'contract' at the top level\n"
         "missing_required_keys.yaml:1:1: error: missing key 'version' at the top level\n"
         "missing_required_keys.yaml:1:1: error: missing key 'instruction' at the top level\n"
         "missing_required_keys.yaml:1:1: error: missing key 'fields' at the top level\n"},
    {"named_ref_with_constraints",
         "named_ref_with_constraints.yaml:9:5: error: key 'values' is not valid in field 'c': its type is the named type 'color'\n"},
    {"named_type_reaches_itself",
         "named_type_reaches_itself.yaml:8:45: error: type 'node' reaches itself through field 'children' of type 'node'; recursive types are not supported in v1\n"},
    {"named_type_shape",
         "named_type_shape.yaml:5:3: error: type 'both' has both 'fields' and 'values'; it is an object or an enum\n"
         "named_type_shape.yaml:6:3: error: type 'neither' needs 'fields' (an object type) or 'values' (an enum type)\n"
         "named_type_shape.yaml:7:3: error: type name 'string' is a built-in type; choose another name\n"},
    {"nesting_too_deep",
         "nesting_too_deep.yaml:5:3: error: the contract nests more than 32 levels (objects and arrays, the record being 1), the limit\n"},
    {"noncharacter",
         "noncharacter.yaml:5:35: error: invalid YAML: the character U+FFFF (bytes ef bf bf) is a non-character, which YAML does not allow; remove it\n"},
    {"nul_character",
         "nul_character.yaml:5:34: error: a NUL character is not allowed in a contract value\n"},
    {"nullable_array_items",
         "nullable_array_items.yaml:7:27: error: nullable array items are not supported in v1; make the array field nullable instead\n"},
    {"pattern_invalid",
         "pattern_invalid.yaml:7:15: error: invalid pattern: missing ')' for the group opened here\n"},
    {"pattern_unsupported_construct",
         "pattern_unsupported_construct.yaml:7:16: error: invalid pattern: '.' is not supported; use a class such as [^\\n]\n"
         "pattern_unsupported_construct.yaml:10:19: error: invalid pattern: '\\s' is not supported; list the white space characters in a class such as [ \\t]\n"},
    {"reply_limits_out_of_range",
         "reply_limits_out_of_range.yaml:7:10: error: 'fence' is allow or reject, not 'maybe'\n"
         "reply_limits_out_of_range.yaml:8:14: error: 'max_bytes' must be between 1 and 1073741824, not 1073741825\n"
         "reply_limits_out_of_range.yaml:9:14: error: 'max_depth' must be between 1 and 1024, not 0\n"},
    {"reply_max_depth_below_contract_depth",
         "reply_max_depth_below_contract_depth.yaml:10:20: error: reply.max_depth 2 is below the contract's own depth 3: no valid reply would fit\n"},
    {"reserved_contract_name_header",
         "reserved_contract_name_header.yaml:1:11: error: contract name 'string' gives the header 'string.h', which would hide the standard <string.h> wherever the generated directory is on the include path; choose another name, such as 'string_reply'\n"},
    {"reserved_contract_name_runtime",
         "reserved_contract_name_runtime.yaml:1:11: error: contract name 'contractc_record' is reserved for the contractc runtime's own names (it starts with 'contractc'); choose another name, such as 'record'\n"},
    {"reserved_contract_name_tag",
         "reserved_contract_name_tag.yaml:1:11: error: contract name 'tm' gives the C struct tag 'tm', which is the tag of a struct, union or enum of <time.h>; choose another name, such as 'tm_reply'\n"},
    {"reserved_contract_name_type",
         "reserved_contract_name_type.yaml:1:11: error: contract name 'size' gives the C type 'size_t', which is a type of <stddef.h>; choose another name, such as 'size_reply'\n"},
    {"reserved_derived_names",
         "reserved_derived_names.yaml:5:3: error: the C name 'uint_fast8_t' of type 'fast8' is a type of <stdint.h>; rename the type or the contract\n"
         "reserved_derived_names.yaml:8:3: error: the C name 'uint_least8_t' of field 'least8' is a type of <stdint.h>; rename the field or the contract\n"},
    {"reserved_field_names",
         "reserved_field_names.yaml:5:3: error: the C name 'NULL' of field 'NULL' is a macro of <stddef.h>; rename the field\n"
         "reserved_field_names.yaml:6:3: error: the C name 'errno' of field 'errno' is a macro of <errno.h>; rename the field\n"
         "reserved_field_names.yaml:7:3: error: the C name 'EOF' of field 'EOF' is a macro of <stdio.h>; rename the field\n"
         "reserved_field_names.yaml:8:3: error: the C name 'I' of field 'I' is a macro of <complex.h>; rename the field\n"
         "reserved_field_names.yaml:9:3: error: the C name 'linux' of field 'linux' is a macro that GNU C (Linux) predefines; rename the field\n"
         "reserved_field_names.yaml:10:3: error: the C name 'size_t' of field 'size_t' is a type of <stddef.h>; rename the field\n"
         "reserved_field_names.yaml:11:3: error: the C name '__typename' of field '__typename' is reserved for the compiler and the C library (it starts with '__', C11 7.1.3); rename the field\n"
         "reserved_field_names.yaml:12:3: error: the C name 'contractc_id' of field 'contractc_id' is reserved for the contractc runtime's own names (it starts with 'contractc'); rename the field\n"
         "reserved_field_names.yaml:13:31: error: the C name 'FLT_EVAL_METHOD' of enum value 'method' of field 'eval' is a macro of <float.h>; rename the field or the contract\n"
         "reserved_field_names.yaml:19:23: error: check function 'printf' is a function of <stdio.h>; the generated header declares it: choose another name\n"},
    {"root_not_mapping",
         "root_not_mapping.yaml:1:1: error: a contract is a YAML mapping (contract:, version:, fields: ...), not a sequence\n"},
    {"rule_field_not_nullable",
         "rule_field_not_nullable.yaml:8:19: error: rule 'rules[0]': exactly_one takes nullable fields, and field 'a' is not nullable\n"
         "rule_field_not_nullable.yaml:9:22: error: rule 'rules[1]' names field 'b' twice\n"
         "rule_field_not_nullable.yaml:9:19: note: 'b' first appears here\n"},
    {"rule_kinds",
         "rule_kinds.yaml:8:5: error: a rule needs one of all_or_none, at_most_one, exactly_one, sum, compare or check\n"
         "rule_kinds.yaml:10:5: error: a rule has exactly one kind; 'at_most_one' beside 'all_or_none': write two rules\n"
         "rule_kinds.yaml:11:18: error: 'all_or_none' needs at least two fields\n"},
    {"rule_names_unknown_field",
         "rule_names_unknown_field.yaml:8:27: error: rule 'rules[0]' names unknown field 'curency'; did you mean 'currency'?\n"},
    {"rules_on_inline_object",
         "rules_on_inline_object.yaml:10:5: error: 'rules' is not valid on an inline object (field 'o'); make the object a named type, types: {NAME: {fields: {...}, rules: [...]}}, and write type: NAME here\n"
         "rules_on_inline_object.yaml:12:19: error: 'rules' is not valid in field 'p': its type is the named type 'pair'; write the rules in types.pair.rules\n"
         "rules_on_inline_object.yaml:13:22: error: unknown key 'rules' in field 'n'; rules belong to the record (the top-level 'rules') or to a named object type\n"},
    {"scale_out_of_range",
         "scale_out_of_range.yaml:7:12: error: 'scale' must be between 0 and 18, not 19\n"
         "scale_out_of_range.yaml:9:5: error: missing key 'scale' in field 'b'\n"},
    {"sum_operand_nullable",
         "sum_operand_nullable.yaml:8:34: error: rule 'rules[0]': the operands of a sum may not be nullable, and field 'total' is\n"},
    {"sum_operands_differ",
         "sum_operands_differ.yaml:9:34: error: rule 'rules[0]': 'parts[]' and 'total' differ in type or scale; a sum's operands share both\n"
         "sum_operands_differ.yaml:10:34: error: rule 'rules[1]': 'parts[]' and 'count' differ in type or scale; a sum's operands share both\n"},
    {"sum_over_wrong_kind",
         "sum_over_wrong_kind.yaml:9:15: error: rule 'rules[0]': a sum adds integers or decimals; the items of 'names' are of type string\n"
         "sum_over_wrong_kind.yaml:10:15: error: rule 'rules[1]': sum over field 'n', which is not an array\n"
         "sum_over_wrong_kind.yaml:11:15: error: rule 'rules[2]': 'of' is \"name[]\" or \"name[].field\" (an array of this object), not 'n'\n"},
    {"sum_path_malformed",
         "sum_path_malformed.yaml:8:15: error: rule 'rules[0]': 'of' is \"name[]\" or \"name[].field\" (an array of this object), not 'items.x'\n"
         "sum_path_malformed.yaml:9:15: error: rule 'rules[1]' names unknown field 'z'\n"
         "sum_path_malformed.yaml:10:15: error: rule 'rules[2]': a sum adds integers or decimals; field 'items[].y' is of type string\n"},
    {"sum_tolerance_notation",
         "sum_tolerance_notation.yaml:10:52: error: rule 'rules[0]': the tolerance is in the operands' notation, a quoted decimal with 2 fraction digits such as \"0.01\" here, not '1'\n"
         "sum_tolerance_notation.yaml:11:51: error: rule 'rules[1]': the tolerance is in the operands' notation, a non-negative integer here, not \"1\"\n"},
    {"tags_refused",
         "tags_refused.yaml:5:13: error: tags ('!!str') are not supported in a contract; the loader types every value itself\n"},
    {"too_many_fields",
         "too_many_fields.yaml:1029:3: error: an object has at most 1024 fields; this is field 1025\n"},
    {"too_many_yaml_nodes",
         "too_many_yaml_nodes.yaml:5:447565: error: the contract has more than 65536 YAML nodes, the limit\n"},
    {"two_documents",
         "two_documents.yaml:6:1: error: a contract file holds one YAML document; this is a second one\n"},
    {"type_names_collide",
         "type_names_collide.yaml:7:3: error: the C name 't_line_item_t' of field 'line_item' collides with that of type 'line_item'\n"
         "type_names_collide.yaml:5:3: note: type 'line_item' is here\n"},
    {"unknown_key_suggests",
         "unknown_key_suggests.yaml:7:5: error: unknown key 'max_lenght' in field 'amount_text'; did you mean 'max_length'?\n"},
    {"unknown_named_type_suggests",
         "unknown_named_type_suggests.yaml:9:19: error: unknown type 'line_iten' in the items of field 'items'; did you mean 'line_item'?\n"},
    {"unknown_schema_dialect",
         "unknown_schema_dialect.yaml:6:19: error: unknown schema dialect 'openai-strct'; did you mean 'openai-strict'?\n"},
    {"unknown_top_level_key",
         "unknown_top_level_key.yaml:4:1: error: unknown key 'descripton' at the top level; did you mean 'description'?\n"},
    {"unknown_type",
         "unknown_type.yaml:6:11: error: unknown type 'strng' in field 's'; did you mean 'string'?\n"
         "unknown_type.yaml:8:11: error: unknown type 'money' in field 'u'; a type is one of string, integer, number, boolean, decimal, enum, date, datetime, object, array or a name from 'types'\n"},
    {"unquoted_path_in_flow",
         "unquoted_path_in_flow.yaml:8:20: error: invalid YAML: did not find expected ',' or '}'; inside { } or [ ] a path with brackets must be quoted: \"items[].amount\"\n"
         "unquoted_path_in_flow.yaml:8:10: note: while parsing a flow mapping\n"},
    {"version_not_positive",
         "version_not_positive.yaml:2:10: error: 'version' is a positive integer, not 0\n"},
    {"version_quoted",
         "version_quoted.yaml:2:10: error: 'version' expects an integer, found a string\n"},
    {"wrong_node_kinds",
         "wrong_node_kinds.yaml:4:9: error: 'source' expects a mapping, found a scalar\n"
         "wrong_node_kinds.yaml:6:6: error: field 'a' expects a mapping such as {type: string}, found a scalar\n"
         "wrong_node_kinds.yaml:9:13: error: 'values' expects a sequence, found a scalar\n"},
    {"yaml_nesting_refused",
         "yaml_nesting_refused.yaml:4:136: error: the contract nests more than 128 YAML collections, the limit\n"},
    {"yaml_syntax_error",
         "yaml_syntax_error.yaml:7:4: error: invalid YAML: did not find expected key\n"
         "yaml_syntax_error.yaml:5:3: note: while parsing a block mapping\n"}
};

#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* Loads one case and returns its printed diagnostics (free() it). */
static char *lint(const char *name, bool *accepted)
{
    char path[512], display[256];
    snprintf(path, sizeof path, "%s%s.yaml", LINT_DIR, name);
    snprintf(display, sizeof display, "%s.yaml", name);
    size_t len = 0;
    char *text = cc_read_file(path, &len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer(display, text, len, &d);
    *accepted = c != NULL;
    ck_assert_msg((c != NULL) == (d.errors == 0), "%s: a model exactly when there is no error",
                  name);
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    ck_assert_ptr_nonnull(f);
    cc_diags_print(&d, f);
    fclose(f);
    cc_contract_free(c);
    cc_diags_free(&d);
    free(text);
    return out;
}

START_TEST(each_invalid_contract_gives_exactly_its_diagnostics)
{
    const lint_case_t *tc = &cases[_i];
    bool accepted = false;
    char *out = lint(tc->name, &accepted);
    ck_assert_msg(strcmp(out, tc->expected) == 0, "%s.yaml:\n--- expected\n%s--- actual\n%s",
                  tc->name, tc->expected, out);
    /* notes alone keep the contract; any error refuses it */
    ck_assert_int_eq(accepted, strstr(tc->expected, ": error: ") == NULL);
    free(out);
}
END_TEST

START_TEST(every_lint_file_has_a_case)
{
    /* one case per file on disk, no duplicate names in the table */
    for (size_t i = 0; i < CASE_COUNT; i++)
        for (size_t j = 0; j < i; j++)
            ck_assert_str_ne(cases[i].name, cases[j].name);
    DIR *dir = opendir(LINT_DIR);
    ck_assert_ptr_nonnull(dir);
    size_t files = 0;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
            continue;
        files++;
        size_t i = 0;
        while (i < CASE_COUNT && (strlen(cases[i].name) != n - 5 ||
                                  strncmp(cases[i].name, e->d_name, n - 5) != 0))
            i++;
        ck_assert_msg(i < CASE_COUNT, "%s has no case in the table", e->d_name);
    }
    closedir(dir);
    ck_assert_uint_eq(files, CASE_COUNT);
    ck_assert_uint_ge(CASE_COUNT, 40);
}
END_TEST

START_TEST(a_misspelt_key_is_suggested_only_when_close)
{
    static const char *const keys[] = {"max_length", "min_length", "pattern", "type"};
    ck_assert_str_eq(cc_suggest("max_lenght", keys, 4), "max_length");
    ck_assert_str_eq(cc_suggest("tpye", keys, 4), "type");
    ck_assert_str_eq(cc_suggest("patern", keys, 4), "pattern");
    ck_assert_ptr_null(cc_suggest("colour", keys, 4));
    ck_assert_ptr_null(cc_suggest("x", keys, 4));
    ck_assert_ptr_null(cc_suggest(NULL, keys, 4));
}
END_TEST

START_TEST(notes_attached_to_an_error_print_after_it)
{
    cc_diags_t d;
    cc_diags_init(&d);
    const cc_mark_t a = {5, 3}, b = {2, 1}, c = {1, 1}, e = {9, 9};
    cc_error(&d, "f.yaml", a, "second %s", "thing");
    cc_diag_related(&d, "f.yaml", b, "first here");
    cc_note(&d, "f.yaml", c, "a note of its own");
    cc_error(&d, "g.yaml", c, "other file");
    cc_error(&d, "f.yaml", e, "last");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cc_diags_print(&d, f);
    fclose(f);
    ck_assert_str_eq(out, "f.yaml:1:1: note: a note of its own\n"
                          "f.yaml:5:3: error: second thing\n"
                          "f.yaml:2:1: note: first here\n"
                          "f.yaml:9:9: error: last\n"
                          "g.yaml:1:1: error: other file\n");
    ck_assert_uint_eq(d.errors, 3);
    free(out);
    cc_diags_free(&d);
}
END_TEST

START_TEST(the_diagnostic_list_is_capped_and_says_so)
{
    cc_diags_t d;
    cc_diags_init(&d);
    d.cap = 2;
    const cc_mark_t m = {1, 1};
    for (int i = 0; i < 5; i++) {
        cc_error(&d, "f.yaml", m, "e%d", i);
        cc_diag_related(&d, "f.yaml", m, "n%d", i);
    }
    ck_assert_uint_eq(d.count, 2);
    ck_assert_uint_eq(d.errors, 5);
    ck_assert_uint_eq(d.dropped, 8);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cc_diags_print(&d, f);
    fclose(f);
    ck_assert_str_eq(out, "f.yaml:1:1: error: e0\n"
                          "f.yaml:1:1: note: n0\n"
                          "contractc: error: 8 more diagnostics not shown (limit 2, or out of memory)\n");
    free(out);
    cc_diags_free(&d);
}
END_TEST

START_TEST(keywords_of_c_and_cpp_are_known)
{
    static const char *const yes[] = {"default", "class", "new", "delete", "template", "bool",
                                      "true", "false", "register", "restrict", "typename",
                                      "_Bool", "constexpr", "and", "xor_eq", "co_await"};
    static const char *const no[] = {"amount", "Default", "size_t", "main", "string", ""};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        ck_assert_msg(cc_is_c_keyword(yes[i]), "%s", yes[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        ck_assert_msg(!cc_is_c_keyword(no[i]), "%s", no[i]);
}
END_TEST

Suite *lint_suite(void);
Suite *lint_suite(void)
{
    Suite *s = suite_create("lint");
    TCase *tc = tcase_create("cases");
    tcase_add_loop_test(tc, each_invalid_contract_gives_exactly_its_diagnostics, 0,
                        (int)CASE_COUNT);
    tcase_add_test(tc, every_lint_file_has_a_case);
    suite_add_tcase(s, tc);
    TCase *td = tcase_create("diagnostics");
    tcase_add_test(td, a_misspelt_key_is_suggested_only_when_close);
    tcase_add_test(td, notes_attached_to_an_error_print_after_it);
    tcase_add_test(td, the_diagnostic_list_is_capped_and_says_so);
    tcase_add_test(td, keywords_of_c_and_cpp_are_known);
    suite_add_tcase(s, td);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lint_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
