/* Reads Pango markup on stdin and parses it with Pango's own parser
 * (pango_parse_markup), as waybar does with a custom module's text and tooltip.
 * Valid markup: its plain text on stdout, exit 0. Invalid: Pango's message on
 * stderr, exit 1. Built by the tests that use it (PangoMarkup.swift). */
#include <pango/pango.h>
#include <stdio.h>

int main(void) {
    GString *input = g_string_new(NULL);
    char buffer[4096];
    size_t count;
    while ((count = fread(buffer, 1, sizeof buffer, stdin)) > 0) g_string_append_len(input, buffer, (gssize)count);
    char *text = NULL;
    PangoAttrList *attributes = NULL;
    GError *error = NULL;
    if (!pango_parse_markup(input->str, (int)input->len, 0, &attributes, &text, NULL, &error)) {
        fprintf(stderr, "%s\n", error->message);
        return 1;
    }
    /* Markup that styles would leave attributes: text shown as it is leaves none. */
    PangoAttrIterator *iterator = pango_attr_list_get_iterator(attributes);
    int styled = 0;
    do {
        GSList *list = pango_attr_iterator_get_attrs(iterator);
        if (list) styled = 1;
        g_slist_free_full(list, (GDestroyNotify)pango_attribute_destroy);
    } while (pango_attr_iterator_next(iterator));
    fputs(text, stdout);
    return styled ? 2 : 0;
}
