# ruff: noqa: RUF001, RUF003 -- Chinese text uses full-width punctuation (，：？！) on purpose
"""A seventeenth fresh held-out set for the reference Agent, written on 2026-12-06 (issue 36) by a helper
session (branch ``i36-fresh17``) writing blind: it did not open the grammar (anything under agents/), the
apps' phrasing declarations (miniapps/*/phrasings.json), docs/decisions/, the git history nor the rows of
any other corpus (the tables in test_corpus.py, the rows of any corpus_people*.py) — only the eighth fresh
set's module docstring (for the format and the rules), the measuring helpers (``_rows``, ``_kind``,
``_check`` in test_corpus.py and ``_measure``, ``_label`` and the ``_DETERMINER`` pattern in
test_corpus_people.py, their bodies only) and the apps' manifests for their bounds (focus up to 24 hours,
quiz up to 1 hour; Notes has no start). It did not search the repository for phrases and did not run the
parser nor the measure on these rows. Each row was labelled with what a careful human assistant would do
with the two timed apps installed (a focus timer and an arithmetic quiz): an unclear request is ``ask`` or
``help``, never a guess. It is measured once, by someone else, after all rows were written, and no row is
changed after that.

Same row format as test_corpus.py: ``text | intent | seconds | activity`` (``-``: no activity; for
``quiz`` the last column is the quiz kind: multiplication, addition, subtraction or mixed when none is
named). Rows that are not a start carry only ``text | intent``. Intents: start, quiz, stop, status,
``ask`` (a start with no clear duration, or one that could be either app — a length said alone with no
app nor work), ``range`` (a duration past the app's bound) and ``help`` (anything that must not act:
questions about the apps, jokes, greetings, negations, past tense, hypotheticals, someone else's doing,
plans for later and delayed starts, things it cannot do — reminders, alarms, pausing, adding time, Notes,
quizzes on anything but the four arithmetic kinds — and scores reported). An activity is written as the
person would want the timer labelled, cut from the request in their words.

Written as new voices — a firefighter on standby, a bakery owner at 4am, a master's student writing a
thesis, a chemistry teacher, a wedding planner, a courier, a freelance illustrator, a grandfather helping a
grandchild with sums, a motivational-speaker type writing in exclamation marks, a minimalist writing two
or three words, a person learning English (English table) and one learning Chinese (Chinese table,
slightly unidiomatic) — typing on phones and laptops: typos, slang, numbers as words and digits, emoji,
mixed zh/en in both tables, some traditional characters, context first, durations before or after the
verb. The mix, per language: about a third focus starts (with and without an activity), a fifth quizzes
(with and without a kind, durations in several forms), stops (also with both running, stopping one and
keeping the other), status questions, a fifth that must not act, a few asks and a few out-of-range ones.

The rule: these rows are **never tuned on**. The grammar is not changed to make one of them pass, and
nobody changing the grammar reads them; they are measured as a whole (understood share and wrong
actions), not row by row. When they stop telling anything new, write another fresh set rather than edit
this one.
"""

HELD_OUT_FRESH17_EN = """
on standby at the station, 45 min focus on the training manual | start | 2700 | the training manual
Firefighter here, might get a callout any sec. 20 minutes on the pump certification reading | start | 1200 | the pump certification reading
4am, dough is proofing. give me 35 min for the invoices | start | 2100 | the invoices
bakery's quiet till 6, focus 1 hour on the wholesale order sheet | start | 3600 | the wholesale order sheet
thesis lit review, 1h15m | start | 4500 | thesis lit review
discussion chapter time. 90 minutes, no distractions please | start | 5400 | discussion chapter
start a focus of fifty minutes for grading lab reports | start | 3000 | grading lab reports
chem teacher here, 40 min while the kids are in the lab: marking titration write-ups | start | 2400 | marking titration write-ups
focus 2 hrs 20 on the Hendersons' seating chart | start | 8400 | the Hendersons' seating chart
Wedding on Saturday!! 25 minutes on vendor emails now please | start | 1500 | vendor emails
between drops, 15 min focus route planning | start | 900 | route planning
inking page 12, 2 hours please | start | 7200 | inking page 12
set me up for three quarters of an hour, colouring the book cover | start | 2700 | colouring the book cover
LET'S GOOO!!! 50 MINUTES ON MY KEYNOTE!!! | start | 3000 | my keynote
You've got this!!! Start a 30 minute focus for rehearsing the opening story!! | start | 1800 | rehearsing the opening story
focus 25m | start | 1500 | -
1h focus | start | 3600 | -
timer 20 min pls | start | 1200 | -
🍅 25 min | start | 1500 | -
⏱️ 45 min reading | start | 2700 | reading
Please start focus 40 minutes for vocabulary study | start | 2400 | vocabulary study
I want make a focus during one hour and half for my IELTS writing | start | 5400 | my IELTS writing
can u start twenty five mins focus pls | start | 1500 | -
start focus for 30 min on 论文 | start | 1800 | 论文
ok focus time: 45 minutes, Spanish flashcards | start | 2700 | Spanish flashcards
half an hour on the quarterly tax return please | start | 1800 | the quarterly tax return
full 24 hours of focus, go | start | 86400 | -
gonna need 3 hours for the portfolio site, start it | start | 10800 | the portfolio site
10 minute focus, just tidying my desk | start | 600 | tidying my desk
focus for an hour on client sketches | start | 3600 | client sketches
pomodoro, 25 mins, cover letter | start | 1500 | cover letter
focus for 1.5 hrs on the grant proposal | start | 5400 | the grant proposal
right, forty minutes of revision for the organic chem test, start | start | 2400 | revision for the organic chem test
start a focus session: 55 min, topic = methods section | start | 3300 | methods section
hey, could you put 12 minutes on the clock for stretching? | start | 720 | stretching
focus 5 min, just answering texts | start | 300 | answering texts
my turn now, 30 mins on the crossword | start | 1800 | the crossword
start 2 hours, thesis formatting | start | 7200 | thesis formatting
two hours of focus starting now | start | 7200 | -
Pls focus mode 45min, emails | start | 2700 | emails
my grandson needs practice on his times tables, give him 10 minutes | quiz | 600 | multiplication
Grandpa here. adding up sums with little Mia for a quarter of an hour please | quiz | 900 | addition
5 min multiplication quiz | quiz | 300 | multiplication
quiz 3m subtraction | quiz | 180 | subtraction
math quiz, 10 minutes | quiz | 600 | mixed
Start an arithmetic quiz for twenty minutes | quiz | 1200 | mixed
quick addition drill, 2 mins | quiz | 120 | addition
take-away sums for 8 minutes for the little one please | quiz | 480 | subtraction
ten min mental maths, mixed | quiz | 600 | mixed
Quiz me on multiplication for half an hour | quiz | 1800 | multiplication
I want practice addition during 15 minutes please, quiz | quiz | 900 | addition
YES!!! 7 MINUTE TIMES TABLE CHALLENGE!!! | quiz | 420 | multiplication
quiz 1 hour, mixed | quiz | 3600 | mixed
60 seconds of subtraction questions | quiz | 60 | subtraction
mental arithmetic quiz 4 min | quiz | 240 | mixed
12 min quiz on subtracting | quiz | 720 | subtraction
arithmetic drill, 90 seconds | quiz | 90 | mixed
乘法 quiz 5 min | quiz | 300 | multiplication
can I get a multiplication quiz, like 6 minutes | quiz | 360 | multiplication
quiz: addition, forty-five minutes | quiz | 2700 | addition
before bedtime, 10 minute arithmetic quiz for the twins | quiz | 600 | mixed
maths quiz, quarter hour, times tables only | quiz | 900 | multiplication
run a 20-min addition quiz | quiz | 1200 | addition
quiz for 3 minutes | quiz | 180 | mixed
stop | stop
callout! kill the timer | stop
end the quiz please | stop
stop the quiz but keep my focus going | stop
end the focus, leave the quiz running | stop
ok I'm done, stop the timer | stop
Please finish the focus now, I must go | stop
STOP THE TIMER!!! I CRUSHED IT!!! | stop
parcel's here, stop it | stop
grandpa here, the little one's tired, end the sums quiz | stop
cancel focus | stop
abort the pomodoro | stop
how long left? | status
left? | status
is the quiz still running? | status
what's running rn | status
How many minutes remain on my focus? | status
when does my timer end | status
how much time do I have left on the multiplication one | status
is my focus still on?? phone died for a sec | status
time check pls | status
timer still going? | status
How long I am focusing already? | status
what's on right now, quiz or timer? | status
hi! | help
thanks, that helped!! | help
how long can a quiz be? | help
what kinds of quizzes can you do? | help
can the focus timer run while my phone is locked? | help
don't start anything yet, still kneading | help
I did a 2 hour focus yesterday | help
my flatmate does 52 minute sessions, is that better? | help
if I did a 30 hour focus would it break | help
remind me at 5 to call the florist | help
set an alarm for 4am | help
pause the timer for a sec | help
add "order more rye flour" to my notes | help
quiz me on the periodic table for 10 min | help
quiz me on division for 5 minutes | help
got 17/20 on the times tables!! | help
tomorrow morning I'll do a 3h focus for the thesis | help
in 20 minutes start a focus for me | help
lol my cat just walked across the keyboard | help
what's the difference between the timer and the quiz? | help
not now, maybe later | help
can you add 10 more minutes to my focus? | help
my daughter is doing a 20 min quiz on her tablet | help
she scored 9 out of 10 on subtraction 🎉 | help
Is 25 minutes a good length for focus? | help
start a focus session | ask
let's do 30 minutes | ask
quiz me on multiplication | ask
focus on the wedding budget | ask
20 min? | ask
ready when you are, start the timer | ask
give me 45 minutes | ask
focus for 30 hours straight | range
2 hour multiplication quiz | range
quiz for ninety minutes | range
start a 48h focus for the hackathon | range
focus 2 days on the thesis | range
75 min addition quiz!!! | range
"""

HELD_OUT_FRESH17_ZH = """
专注25分钟 | start | 1500 | -
开始专注半小时，写论文第三章 | start | 1800 | 写论文第三章
值班待命中，先专注四十五分钟看培训手册 | start | 2700 | 看培训手册
凌晨四点，面团在发酵，给我35分钟对账 | start | 2100 | 对账
帮我开个番茄钟，25分钟，改实验报告 | start | 1500 | 改实验报告
專注一小時，準備期末考 | start | 3600 | 準備期末考
開始計時四十分鐘，畫插圖 | start | 2400 | 畫插圖
论文文献综述，一小时十五分 | start | 4500 | 论文文献综述
我要读书一个小时 | start | 3600 | 读书
婚礼座位表，专注九十分钟 | start | 5400 | 婚礼座位表
送完这单了，专注15分钟规划路线 | start | 900 | 规划路线
来！！！五十分钟！！！准备演讲稿！！！ | start | 3000 | 准备演讲稿
番茄钟 两小时 | start | 7200 | -
专注 1h | start | 3600 | -
请你开始专注时间二十分钟，为了学习中文语法 | start | 1200 | 学习中文语法
我想专注三十分钟做作业，可以吗？ | start | 1800 | 做作业
开个25min的pomodoro | start | 1500 | -
focus 40分钟 背单词 | start | 2400 | 背单词
一刻钟，整理桌面 | start | 900 | 整理桌面
三刻钟专注，批改化学作业 | start | 2700 | 批改化学作业
给我计时一个半小时，写基金申请 | start | 5400 | 写基金申请
专注两个钟头画封面 | start | 7200 | 画封面
开始专注，时长45分钟，主题：方法部分 | start | 2700 | 方法部分
我先改卷子，专注50分钟 | start | 3000 | 改卷子
专注24小时 | start | 86400 | -
开始专注十分钟 | start | 600 | -
🍅 30分钟 | start | 1800 | -
专注五分钟回消息 | start | 300 | 回消息
計時三十分鐘，練書法 | start | 1800 | 練書法
我要专注二十五分钟在汉字上 | start | 1500 | 汉字
帮我专注一个钟，做账 | start | 3600 | 做账
冲冲冲！！专注一小时写提案！！💪 | start | 3600 | 写提案
1.5小时专注，改简历 | start | 5400 | 改简历
专注45min做PPT | start | 2700 | 做PPT
接下来四十分钟，专心复习有机化学 | start | 2400 | 复习有机化学
设一个二十分钟的专注，拉伸 | start | 1200 | 拉伸
开始二十分钟专注 | start | 1200 | -
专注三小时，作品集网站 | start | 10800 | 作品集网站
乘法测验5分钟 | quiz | 300 | multiplication
考考我加法，十分钟 | quiz | 600 | addition
减法练习三分钟 | quiz | 180 | subtraction
口算十分钟 | quiz | 600 | mixed
来一个二十分钟的算术测验 | quiz | 1200 | mixed
孙子要练九九乘法表，给他出十五分钟的题 | quiz | 900 | multiplication
爷爷陪你做加法，一刻钟 | quiz | 900 | addition
我想要做一个乘法的考试五分钟 | quiz | 300 | multiplication
混合口算 8分钟 | quiz | 480 | mixed
做个quiz，减法，5分钟 | quiz | 300 | subtraction
数学小测验半小时 | quiz | 1800 | mixed
加法题，九十秒 | quiz | 90 | addition
乘法！！！七分钟！！！挑战！！！ | quiz | 420 | multiplication
算術測驗十分鐘 | quiz | 600 | mixed
减法口算一小时 | quiz | 3600 | subtraction
考我乘法，4分钟 | quiz | 240 | multiplication
给孩子出个加法测验，六分钟 | quiz | 360 | addition
quiz 2min 加法 | quiz | 120 | addition
开始口算练习，四十五分钟，乘法 | quiz | 2700 | multiplication
測驗一下減法，十二分鐘 | quiz | 720 | subtraction
一分钟心算 | quiz | 60 | mixed
来个口算测验，三分钟 | quiz | 180 | mixed
睡前做十分钟乘法口算 | quiz | 600 | multiplication
停 | stop
停止专注 | stop
结束测验 | stop
测验停掉，专注继续 | stop
把计时停了，题还要做 | stop
出警了！关掉计时器 | stop
取消番茄钟 | stop
可以你停止计时器吗 | stop
题不做了，停掉吧 | stop
不专注了，结束吧 | stop
停止測驗 | stop
快递到了，结束计时 | stop
还剩多久？ | status
还剩？ | status
测验还在进行吗 | status
现在在跑什么 | status
我的专注还有多少时间剩下？ | status
计时器什么时候结束 | status
專注還剩幾分鐘 | status
乘法那个还有几分钟 | status
番茄钟还在吗？手机刚才黑屏了 | status
现在是测验还是专注在计时？ | status
我已经专注多久了 | status
你好 | help
谢谢！ | help
测验最长能多久？ | help
你能出哪些题？ | help
锁屏以后番茄钟还走吗？ | help
先别开始，我还在揉面 | help
昨天专注了两个小时 | help
我室友每次专注52分钟，这样好吗 | help
如果我专注30个小时会怎么样 | help
下午五点提醒我给花店打电话 | help
设个凌晨四点的闹钟 | help
暂停一下计时 | help
帮我记一下：明天多订黑麦粉 | help
考我元素周期表十分钟 | help
除法测验五分钟 | help
九九乘法表我得了18分！ | help
明天早上再专注三小时写论文 | help
二十分钟以后帮我开始专注 | help
哈哈哈哈 猫踩键盘了 | help
计时器和测验有什么区别？ | help
不用了，等会儿再说 | help
专注能加十分钟吗？ | help
我女儿在平板上做二十分钟的口算 | help
25分钟专注合适吗？ | help
你会讲笑话吗 | help
开始专注 | ask
来十分钟 | ask
考考我乘法 | ask
专注写婚礼预算 | ask
三十分钟？ | ask
开个番茄钟吧 | ask
给我四十五分钟 | ask
专注30小时 | range
乘法测验两小时 | range
口算九十分钟 | range
开始48小时专注，黑客松 | range
专注两天写论文 | range
加法测验75分钟！！ | range
"""
