package droidletchat

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/chatspec/chatformats/droidletchatv1"
	"github.com/chatspec/chatformats/internal/rt"
)

// V1SecondsBelow is the bound under which a version 1 timestamp is read as
// seconds (as milliseconds it would fall before 1973) and multiplied by 1000.
const V1SecondsBelow = 100_000_000_000

// UpgradeFromV1 turns a version 1 chat into a version 2 chat: SpeakerID
// becomes ChatMemid, the one-item ContentType list its only value, each
// [kind, text] pair an item {ID, Content}, and a timestamp in seconds becomes
// milliseconds. The result is validated; the error is a *ValidationError.
func UpgradeFromV1(chat *droidletchatv1.DroidletChat) (*DroidletChat, error) {
	if chat == nil {
		return nil, ValidateDroidletChat(nil)
	}
	out := DroidletChat{ChatMemid: chat.SpeakerID, Timestamp: chat.Timestamp, Content: make([]ContentItem, 0, len(chat.Content))}
	if len(chat.ContentType) > 0 {
		out.ContentType = ContentType(chat.ContentType[0])
	}
	for _, item := range chat.Content {
		out.Content = append(out.Content, ContentItem{ID: ContentKind(item.Kind), Content: item.Text})
	}
	if out.Timestamp < V1SecondsBelow {
		if out.Timestamp < math.MinInt64/1000 {
			// Its milliseconds are below int64: checked as that number (an int64 error, as in Python
			// and TypeScript), never wrapped around into some other time.
			tree := out.toTree().(*rt.Object)
			tree.Set("timestamp", json.Number(strconv.FormatInt(out.Timestamp, 10)+"000"))
			return nil, rt.Check[DroidletChat](tree, parseDroidletChat)
		}
		out.Timestamp *= 1000
	}
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return &out, nil
}

// BuildChat returns a chat whose content type follows from what is given:
// mediaOptions -> chat_and_media_options; media with textOptions ->
// chat_and_media_and_text_options; textOptions -> chat_and_text_options;
// media -> chat_and_media; otherwise chat_string ("" and empty lists mean
// not given). Items: the text, then the media link, the response options and
// the response image links. A combination the content type does not admit
// (e.g. text options with media options) is a *ValidationError, as any
// invalid chat is. timestamp is in milliseconds.
func BuildChat(speakerID string, timestamp int64, text string, media string, textOptions []string, mediaOptions []string) (*DroidletChat, error) {
	chat := DroidletChat{ChatMemid: speakerID, Timestamp: timestamp}
	switch {
	case len(mediaOptions) > 0:
		chat.ContentType = ContentTypeChatAndMediaOptions
	case media != "" && len(textOptions) > 0:
		chat.ContentType = ContentTypeChatAndMediaAndTextOptions
	case len(textOptions) > 0:
		chat.ContentType = ContentTypeChatAndTextOptions
	case media != "":
		chat.ContentType = ContentTypeChatAndMedia
	default:
		chat.ContentType = ContentTypeChatString
	}
	chat.Content = append(chat.Content, ContentItem{ID: ContentKindText, Content: text})
	if media != "" {
		chat.Content = append(chat.Content, ContentItem{ID: ContentKindImageLink, Content: media})
	}
	for _, option := range textOptions {
		chat.Content = append(chat.Content, ContentItem{ID: ContentKindResponseOption, Content: option})
	}
	for _, link := range mediaOptions {
		chat.Content = append(chat.Content, ContentItem{ID: ContentKindResponseImageLink, Content: link})
	}
	if err := chat.Validate(); err != nil {
		return nil, err
	}
	return &chat, nil
}
