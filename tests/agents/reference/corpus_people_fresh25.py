# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A twenty-fifth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh25``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the rows of any corpus
(test_corpus.py tables, any corpus_people*.py rows), git history or diffs, nor the other writer's worktree —
only the eighth fresh set's module docstring (for the format and the rules), the measuring helpers
(``_rows``, ``_kind``, ``_check`` in test_corpus.py; ``_measure``, ``_label`` and the ``_DETERMINER``
regex in test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to
24 hours, quiz up to 1 hour; Notes has no timed start). It did not search the repository for phrases and
did not run the parser or the measure on these rows. Each row was labelled with what a careful human
assistant would do with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear
request is ``ask`` or ``help``, never a guess. It is measured once, by someone else, after all rows were
written, and no row is changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app, such as a length said alone),
``range`` (a duration past the app's bound) and ``help`` (anything that must not act: questions about the
apps, jokes, negations, past tense, hypotheticals, someone else's doing, plans for later, things it cannot
do — pausing, reminders, alarms, Notes, quizzes on anything but the four arithmetic kinds — scores
reported and greetings). An activity is written as the person would want the timer labelled, cut from the
request in their words. Colon times (0:45, 1:30) are hours and minutes, and are only used for focus
starts, where that reading is the natural one.

Written as new voices — an architect before a deadline, a student who mixes pinyin and characters, a dad
helping a 9-year-old with take-away sums, a podcast editor, an elderly man who calls the timer "the
clock", a dancer, a call-centre trainee, someone who writes requests as questions ("could I have…?",
"能不能…"), someone who puts an emoji after every word, a person on a smartwatch, an accountant who writes
times as 0:45 and 1:30, and a person who asks for the status in many ways — on phones and laptops: typos,
slang, numbers as words and digits, emoji, mixed zh/en in both tables, some traditional characters,
context first, durations before or after the verb. The mix, per language: about a third focus starts
(with and without an activity), a fifth quizzes (with and without a kind, durations in various forms),
stops (also with both apps running, stopping one and keeping the other), status, a fifth that must not
act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured once, as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH25_EN = """
architect here, deadline friday. 90 min on the facade drawings pls | start | 5400 | facade drawings
start the clock for forty minutes, I'm doing the crossword | start | 2400 | crossword
Could I have a 25 minute focus for the podcast edit? | start | 1500 | podcast edit
focus 0:45 on reconciliations | start | 2700 | reconciliations
1:30 focus block, month-end close | start | 5400 | month-end close
start 🚀 a 20 ⏳ minute 🕐 focus 🎯 on 👉 reading 📚 | start | 1200 | reading
focus 30m | start | 1800 | -
focus 15 min stretching | start | 900 | stretching
can u start a fourty five min focus for choreo practice | start | 2700 | choreo practice
focus 35 minutes on the new call scripts | start | 2100 | new call scripts
give me an hour and a half of deep work on the site plan | start | 5400 | site plan
focus timer 2 hrs, renderings | start | 7200 | renderings
set the clock for half an hour please, letters to my grandson | start | 1800 | letters to my grandson
Could I get a quarter of an hour focus on inbox zero? | start | 900 | inbox zero
focus for 1h15 on the audit file | start | 4500 | audit file
pls focus mode 50 mins, cutting ep 12 | start | 3000 | cutting ep 12
lets lock in for 3 hours, studio model | start | 10800 | studio model
ten min focus | start | 600 | -
start focusing now, 55 minutes | start | 3300 | -
1.5 hours focus for thesis ch. 3 | start | 5400 | thesis ch. 3
can you start me a focus session of 45 minutes? | start | 2700 | -
Would it be possible to start a 60-minute focus for tax returns? | start | 3600 | tax returns
two hour focus on the competition entry, no breaks | start | 7200 | competition entry
0:20 on invoices, focus pls | start | 1200 | invoices
yo start a focus 4 the next 25 mins, warmups | start | 1500 | warmups
focus timer 20 minutes pls for shift prep | start | 1200 | shift prep
25 min pomodoro for mixing the intro | start | 1500 | mixing the intro
focus 45 mins on noise reduction for episode 7 | start | 2700 | noise reduction for episode 7
Put the clock on for one hour. Gardening catalogue. | start | 3600 | gardening catalogue
focus timer 12 hours for the final boards | start | 43200 | final boards
start a 90 second focus, breathing | start | 90 | breathing
a focus of 1 hr 20 min for the client deck | start | 4800 | client deck
focus sesh 40min rn, physics hw | start | 2400 | physics hw
hey, can I have twenty minutes of focus? | start | 1200 | -
wanna focus for an hour on spanish | start | 3600 | spanish
focus for 24 hours, hackathon | start | 86400 | hackathon
focus 1h | start | 3600 | -
45 minutes, focus, bookkeeping | start | 2700 | bookkeeping
pls start a 30 min focus on 复习 notes | start | 1800 | 复习 notes
Could you run the clock for 2 hours? I'm sorting the photo albums | start | 7200 | sorting the photo albums
my 9yo needs take-away practice, 10 minute quiz please | quiz | 600 | subtraction
could I have a 5 min times tables quiz? | quiz | 300 | multiplication
quiz 15 mins addition | quiz | 900 | addition
arithmetic quiz for 20 minutes | quiz | 1200 | mixed
🧮 addition ➕ quiz 📝 8 ⏰ minutes 🙌 | quiz | 480 | addition
math quiz, 30 mins | quiz | 1800 | mixed
subtraction drill for a quarter of an hour | quiz | 900 | subtraction
quiz me on multiplication for 12 minutes | quiz | 720 | multiplication
mental maths quiz, half an hour, mix of everything | quiz | 1800 | mixed
quick 3 minute adding quiz | quiz | 180 | addition
Can you give my daughter a ten-minute minus quiz? | quiz | 600 | subtraction
multiplication quiz 1 hour | quiz | 3600 | multiplication
45 sec times table quiz | quiz | 45 | multiplication
quiz 7 min | quiz | 420 | mixed
let's do a 25-minute arithmetic quiz, just subtraction | quiz | 1500 | subtraction
start a math quiz for twenty mins | quiz | 1200 | mixed
a 6 minute quiz on take aways for my son | quiz | 360 | subtraction
trainee here, brain warmup: 5-min mental math quiz | quiz | 300 | mixed
could we do an addition quiz for two minutes? | quiz | 120 | addition
times tables for fifteen minutes, quiz format | quiz | 900 | multiplication
quizz me 10 mins, times tables | quiz | 600 | multiplication
start an arithmetic quiz of 40 minutes with mixed questions | quiz | 2400 | mixed
multiplication 乘法 quiz, 4 minutes | quiz | 240 | multiplication
stop the clock | stop
Could you stop the focus timer? | stop
end quiz | stop
ok enough, cancel the timer | stop
stop the quiz but leave my focus running | stop
end the focus, keep the quiz going | stop
🛑 stop ✋ timer ⏱️ | stop
kill the focus session, client just called | stop
my kid's done, you can end the take-away quiz | stop
stop | stop
abort focus | stop
how long left? | status
is the clock still going? | status
what's running right now? | status
how much time on the quiz? | status
Could you tell me how many minutes are left on my focus? | status
time left | status
am I still in focus mode? | status
how far along is the timer | status
is the quiz over yet? | status
⏳ how 🤔 much ⏰ longer? | status
when does my session end? | status
status? | status
remaining on focus? | status
how does the focus timer work? | help
don't start a timer yet | help
I did a 45 minute focus this morning | help
if I started a 2 hour focus, could I pause it? | help
pause the timer | help
remind me at 5 to call the client | help
set an alarm for 7am | help
quiz me on French verbs for 10 minutes | help
add buy milk to my notes | help
my son got 18 out of 20 on the quiz! | help
hello 👋 | help
my colleague is doing a 25 min focus | help
tomorrow I'll do a 2 hour focus on the model | help
tell me a joke about accountants | help
what apps do you have? | help
good morning, how are you? | help
not now, maybe later | help
谢谢 thanks! | help
can the quiz do division? | help
division quiz 10 minutes | help
was the last quiz mixed or just times tables? | help
I should probably focus for an hour but I can't be bothered | help
geography quiz 5 min | help
at 3pm start a 30 min focus | help
what's 7 times 8? | help
start a focus session | ask
let's do 30 minutes | ask
could I have a quiz? | ask
20 min pls | ask
start the clock | ask
focus for 30 hours | range
a 90 minute multiplication quiz | range
quiz for 2 hours | range
focus timer for two days | range
"""

HELD_OUT_FRESH25_ZH = """
明天交图，帮我专注90分钟画立面 | start | 5400 | 画立面
开个专注，一个半小时，改施工图 | start | 5400 | 改施工图
能不能帮我开一个25分钟的专注？我要剪播客 | start | 1500 | 剪播客
专注0:45，对账 | start | 2700 | 对账
1:30 专注，做月结 | start | 5400 | 做月结
把钟定上半个钟头，我看报纸 | start | 1800 | 看报纸
专注 🎯 三十 ⏳ 分钟 📖 背单词 | start | 1800 | 背单词
专注30分 | start | 1800 | -
专注20分钟练基本功 | start | 1200 | 练基本功
wo yao 专注 40分钟 背话术 | start | 2400 | 背话术
帮我开专注模式 一小时 复习gaoshu | start | 3600 | 复习gaoshu
專注兩個小時，寫論文 | start | 7200 | 寫論文
請幫我開始專注四十五分鐘 | start | 2700 | -
来个番茄钟，25分钟，写周报 | start | 1500 | 写周报
专注一刻钟 | start | 900 | -
我要专注三刻钟学习 | start | 2700 | 学习
可以开个专注吗？半小时就行 | start | 1800 | -
给我开一个1小时20分钟的专注，做客户的PPT | start | 4800 | 做客户的PPT
专注 50min 剪第12期 | start | 3000 | 剪第12期
接下来两小时专注做模型 | start | 7200 | 做模型
开始专注，十分钟 | start | 600 | -
专注 12 小时，通宵赶图 | start | 43200 | 通宵赶图
能不能专注九十秒？冥想 | start | 90 | 冥想
专注一个钟，练字 | start | 3600 | 练字
开专注 24小时 黑客松 | start | 86400 | 黑客松
专注1h | start | 3600 | -
练舞前先专注15分钟拉伸 | start | 900 | 拉伸
focus 一下 35 分钟，学新话术 | start | 2100 | 学新话术
帮我 start 一个 45 min 的专注，写 essay | start | 2700 | 写 essay
开个专注计时吧，二十分钟，整理发票 | start | 1200 | 整理发票
要专注1.5小时复习物理 | start | 5400 | 复习物理
我想专注四十分钟读书 | start | 2400 | 读书
能否开启一个六十分钟的专注？准备答辩 | start | 3600 | 准备答辩
专注 0:20 报销单 | start | 1200 | 报销单
钟开起来，一个小时，我要打太极 | start | 3600 | 打太极
開始專注二十五分鐘，背單字 | start | 1500 | 背單字
专注3小时 赶方案 | start | 10800 | 赶方案
现在开始专注55分钟 | start | 3300 | -
番茄钟走一个 25分钟 | start | 1500 | -
女儿九岁，给她来个10分钟的减法测验 | quiz | 600 | subtraction
能不能来个五分钟的乘法口算？ | quiz | 300 | multiplication
加法练习15分钟 | quiz | 900 | addition
来个二十分钟的口算测验 | quiz | 1200 | mixed
🧮 乘法 ✖️ 测验 📝 8 ⏰ 分钟 | quiz | 480 | multiplication
口算测验半小时，混合题 | quiz | 1800 | mixed
减法小测一刻钟 | quiz | 900 | subtraction
考考我乘法，12分钟 | quiz | 720 | multiplication
心算测验 半个小时 | quiz | 1800 | mixed
来个3分钟加法题 | quiz | 180 | addition
可以给我儿子出十分钟的减法题吗？ | quiz | 600 | subtraction
乘法测验一小时 | quiz | 3600 | multiplication
45秒九九乘法表测验 | quiz | 45 | multiplication
测验7分钟 | quiz | 420 | mixed
来一个25分钟的算术测验，只要减法 | quiz | 1500 | subtraction
开始数学测验 二十分钟 | quiz | 1200 | mixed
给孩子来个6分钟退位减法 | quiz | 360 | subtraction
培训前热热脑，五分钟口算 | quiz | 300 | mixed
能来个两分钟的加法测验吗？ | quiz | 120 | addition
来个 kousuan 测验 10分钟 乘法 | quiz | 600 | multiplication
四十分钟算术测验 | quiz | 2400 | mixed
quiz 一下加法 10 min | quiz | 600 | addition
測驗乘法二十分鐘 | quiz | 1200 | multiplication
把钟停了 | stop
能不能把专注结束掉？ | stop
结束测验 | stop
算了，取消计时 | stop
测验停了，专注继续 | stop
结束专注，测验别动 | stop
🛑 停 ✋ 计时 ⏱️ | stop
客户来电话了，专注先关掉 | stop
孩子做完了，减法测验可以结束了 | stop
停 | stop
不做了，关掉测验 | stop
停止專注 | stop
还剩多久？ | status
钟还在走吗？ | status
现在在跑什么？ | status
测验还有几分钟？ | status
能不能告诉我专注还剩几分钟？ | status
剩余时间 | status
我还在专注模式吗？ | status
计时到哪了 | status
测验结束了没？ | status
⏳ 还 🤔 有 ⏰ 多久？ | status
我的专注几点结束？ | status
状态？ | status
還剩多少時間 | status
专注计时器怎么用？ | help
先别开计时 | help
我今天上午专注了45分钟 | help
如果我开了两小时专注，中途能暂停吗？ | help
暂停一下计时 | help
五点提醒我给客户打电话 | help
定个早上七点的闹钟 | help
考我十分钟英语单词 | help
在笔记里记一下买牛奶 | help
我儿子测验拿了18分，满分20！ | help
你好呀👋 | help
我同事在专注25分钟 | help
明天我要专注两个小时做模型 | help
讲个会计的笑话 | help
你有哪些应用？ | help
早上好，吃了吗？ | help
现在不要，晚点再说 | help
谢谢！ | help
测验能出除法题吗？ | help
除法测验十分钟 | help
上次测验是混合的还是乘法？ | help
下午三点开始专注半小时 | help
7乘8等于多少？ | help
地理测验五分钟 | help
开个专注 | ask
来个二十分钟吧 | ask
能来个测验吗？ | ask
半小时 | ask
把钟开起来 | ask
专注30小时 | range
来个90分钟的乘法测验 | range
测验两个小时 | range
专注计时两天 | range
專注二十五個小時 | range
"""
